import { BotFrameworkError } from '@fieldops/contracts';
import { parseTokenExchangeState } from './token-exchange-state';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('parseTokenExchangeState', () => {
  it('reads botbuilder’s and the Agents SDK’s TokenExchangeState', () => {
    expect(
      parseTokenExchangeState(
        encode({
          connectionName: 'company',
          msAppId: 'bot-app',
          conversation: {
            activityId: 'a1',
            user: { id: 'user-1' },
            bot: { id: 'bot' },
            conversation: { id: 'c1' },
            channelId: 'directline',
            serviceUrl: 'http://connector/',
          },
          relatesTo: null,
        }),
      ),
    ).toEqual({
      connectionName: 'company',
      msAppId: 'bot-app',
      conversation: {
        channelId: 'directline',
        conversationId: 'c1',
        userId: 'user-1',
        serviceUrl: 'http://connector/',
        botId: 'bot',
        activityId: 'a1',
      },
    });
    expect(
      parseTokenExchangeState(
        encode({
          connectionName: 'c',
          conversation: { user: { id: 'u' }, conversation: { id: 'c' }, channelId: 'x' },
        }),
      ).msAppId,
    ).toBe('');
  });

  it.each([
    ['absent', undefined],
    ['not base64 JSON', '%%%'],
    [
      'no connection',
      encode({ conversation: { user: { id: 'u' }, conversation: { id: 'c' }, channelId: 'x' } }),
    ],
    ['no user', encode({ connectionName: 'c', conversation: { conversation: { id: 'c' }, channelId: 'x' } })],
    ['too long', 'A'.repeat(20_000)],
  ])('refuses a state that is %s with 400', (_case, state) => {
    expect(() => parseTokenExchangeState(state)).toThrow(BotFrameworkError);
  });
});
