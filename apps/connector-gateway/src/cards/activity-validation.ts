import { validateActivity } from '@fieldops/contracts';
import { ErrorEnvelopeException } from '@fieldops/platform';

/**
 * Throws the Bot Connector error for the first rule a bot's activity breaks: 413 `MessageSizeTooBig` above
 * 256 KB, otherwise 400 `BadArgument` naming the field (`attachments[0].content.buttons[1].value: …`).
 */
export function assertValidBotActivity(activity: unknown): void {
  const violations = validateActivity(activity);
  const tooBig = violations.find((violation) => violation.code === 'MessageSizeTooBig');
  if (tooBig) throw new ErrorEnvelopeException(413, 'MessageSizeTooBig', tooBig.message);
  const [first] = violations;
  if (first) {
    throw new ErrorEnvelopeException(
      400,
      'BadArgument',
      first.path ? `${first.path}: ${first.message}` : first.message,
    );
  }
}
