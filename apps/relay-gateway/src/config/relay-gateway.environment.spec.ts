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

  it('accepts REDIS_URL for one server, a Redis Cluster or Sentinel, and fails fast naming it otherwise', () => {
    for (const url of [
      'redis://127.0.0.1:6379',
      'redis+cluster://redis-0:6379,redis-1:6379',
      'redis+sentinel://s1:26379,s2:26379/fieldops',
    ])
      expect(load({ REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(() => load({ REDIS_URL: 'redis+cluster://:s3cret@redis-0' })).toThrow(
      /REDIS_URL "redis-0" is not a host:port pair/,
    );
    expect(() => load({ REDIS_URL: 'redis+cluster://:s3cret@redis-0' })).not.toThrow(/s3cret/);
  });
});
