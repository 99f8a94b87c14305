import { BOTBUILDER_CHANNEL_TOKEN_ISSUER, channelTokenIssuerOf } from './channel-token-issuer';

describe('channelTokenIssuerOf', () => {
  it('gives botbuilder bots the platform default and Agents SDK bots the issuer of the first tenant', () => {
    expect(channelTokenIssuerOf({})).toBe(BOTBUILDER_CHANNEL_TOKEN_ISSUER);
    expect(channelTokenIssuerOf({ sdk: 'botbuilder' }, { botbuilder: 'urn:platform:default' })).toBe(
      'urn:platform:default',
    );
    expect(channelTokenIssuerOf({ sdk: 'agents' })).toBe('https://sts.windows.net/botframework.com/');
    expect(channelTokenIssuerOf({ sdk: 'agents' }, { botbuilder: 'urn:x', tenant: 'contoso' })).toBe(
      'https://sts.windows.net/contoso/',
    );
  });

  it('lets an explicit issuer win over the SDK', () => {
    expect(channelTokenIssuerOf({ sdk: 'agents', channelTokenIssuer: 'urn:mine' })).toBe('urn:mine');
    expect(channelTokenIssuerOf({ channelTokenIssuer: 'urn:mine' }, { botbuilder: 'urn:x' })).toBe(
      'urn:mine',
    );
  });
});
