import { activityViolationError, validateActivity } from '@fieldops/contracts';

/**
 * Throws the Bot Connector error for the first rule a bot's activity breaks: 413 `MessageSizeTooBig` above
 * 256 KB, otherwise 400 `BadArgument` naming the field (`attachments[0].content.buttons[1].value: …`).
 * `prefix` locates the activity in a larger body (`activities[2].`).
 */
export function assertValidBotActivity(activity: unknown, prefix = ''): void {
  const error = activityViolationError(validateActivity(activity), prefix);
  if (error) throw error;
}
