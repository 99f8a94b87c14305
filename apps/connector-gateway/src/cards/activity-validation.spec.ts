import { BotFrameworkError } from '@fieldops/contracts';
import { assertValidBotActivity } from './activity-validation';

function errorOf(activity: unknown): { status: number; code: string; message: string } | undefined {
  try {
    assertValidBotActivity(activity);
    return undefined;
  } catch (error) {
    if (!(error instanceof BotFrameworkError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
}

describe('assertValidBotActivity', () => {
  it('passes a valid activity', () => expect(errorOf({ type: 'message', text: 'hi' })).toBeUndefined());

  it('answers 400 BadArgument naming the path', () => {
    const activity = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.hero',
          content: {
            buttons: [
              { type: 'imBack', value: 'a' },
              { type: 'openUrl', value: 'not a url' },
            ],
          },
        },
      ],
    };
    expect(errorOf(activity)).toEqual({
      status: 400,
      code: 'BadArgument',
      message: expect.stringMatching(/^attachments\[0\]\.content\.buttons\[1\]\.value: /),
    });
  });

  it('answers 413 MessageSizeTooBig above 256 KB, before any other rule', () =>
    expect(errorOf({ text: 'x'.repeat(300_000) })).toMatchObject({ status: 413, code: 'MessageSizeTooBig' }));
});
