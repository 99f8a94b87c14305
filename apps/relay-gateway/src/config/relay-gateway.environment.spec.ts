import { loadEnvironment } from '@fieldops/platform';
import { RelayGatewayEnvironment } from './relay-gateway.environment';

const load = (variables: NodeJS.ProcessEnv): RelayGatewayEnvironment =>
  loadEnvironment(
    RelayGatewayEnvironment,
    { PLATFORM_CONFIG: 'platform.yaml', ...variables },
    'relay-gateway',
  );

describe('RelayGatewayEnvironment', () => {
  it("stamps connector-gateway's default address as serviceUrl when nothing says otherwise", () => {
    expect(load({}).RELAY_BOT_SERVICE_URL).toBe('http://localhost:8020/');
  });

  it("follows connector-gateway's port and public URL", () => {
    expect(load({ CONNECTOR_GATEWAY_PORT: '9020' }).RELAY_BOT_SERVICE_URL).toBe('http://localhost:9020/');
    expect(load({ CONNECTOR_GATEWAY_PORT: '0' }).RELAY_BOT_SERVICE_URL).toBe('http://localhost:8020/');
    expect(
      load({ CONNECTOR_GATEWAY_PORT: '9020', CONNECTOR_PUBLIC_URL: 'https://bots.example.com' })
        .RELAY_BOT_SERVICE_URL,
    ).toBe('https://bots.example.com/');
  });

  it('keeps an explicit RELAY_BOT_SERVICE_URL', () => {
    expect(
      load({ CONNECTOR_GATEWAY_PORT: '9020', RELAY_BOT_SERVICE_URL: 'http://connector-gateway:8020/' })
        .RELAY_BOT_SERVICE_URL,
    ).toBe('http://connector-gateway:8020/');
  });
});
