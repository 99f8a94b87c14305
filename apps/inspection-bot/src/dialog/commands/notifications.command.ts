import { type NotificationPreferences } from '../../inspection-api/inspection-api.types';
import { type PhraseKey } from '../../phrases/phrase-catalogue';
import { type ConversationTurn } from '../conversation-turn';

/** A change the chat asks for (`notifications off` / `on` for the chat channel, `quiet 22:00-07:00`, `remind 08:00`, `timezone Asia/Shanghai`). */
export type NotificationChange = Partial<Omit<NotificationPreferences, 'user' | 'updated_at'>>;

/** How each event type reads in the chat. */
const EVENT_PHRASES: Record<string, PhraseKey> = {
  'record.failed': 'eventRecordFailed',
  'record.warned': 'eventRecordWarned',
  'device.archived': 'eventDeviceArchived',
  'action.assigned': 'eventActionAssigned',
  'action.done': 'eventActionDone',
  'action.verified': 'eventActionVerified',
  'check.due': 'eventCheckDue',
  'check.overdue': 'eventCheckOverdue',
  'action.overdue': 'eventActionOverdue',
};

const clock = (time: string): string => time.slice(0, 5);

/**
 * `notifications`: the signed-in person's notification preferences (inspection-api's, docs/protocols/notifications.md),
 * changed first when the message asked for a change; inspection-api's refusals (a bad time or zone) are answered as
 * every refusal is.
 */
export async function showNotifications(turn: ConversationTurn, change?: NotificationChange): Promise<void> {
  const inspector = await turn.inspector();
  if (!inspector) return turn.reply('unknownInspector');
  const preferences = change
    ? await turn.api.changeNotificationPreferences(inspector.id, change)
    : await turn.api.notificationPreferences(inspector.id);
  const events = preferences.events.length
    ? (
        await turn.phrases(
          preferences.events.map((type): [PhraseKey] => [EVENT_PHRASES[type] ?? 'notificationsNone']),
        )
      ).join(', ')
    : await turn.phrase('notificationsNone');
  const quiet =
    preferences.quiet_hours_start && preferences.quiet_hours_end
      ? `${clock(preferences.quiet_hours_start)}–${clock(preferences.quiet_hours_end)}`
      : await turn.phrase('notificationsNone');
  const reminder = preferences.reminder_time
    ? clock(preferences.reminder_time)
    : await turn.phrase('notificationsWhenDue');
  const zone = preferences.time_zone ?? (await turn.phrase('notificationsServiceZone'));
  const chat = await turn.phrase(preferences.chat ? 'notificationsOn' : 'notificationsOff');
  const email = preferences.email ?? (await turn.phrase('notificationsOff'));
  if (change) await turn.reply('notificationsSaved');
  await turn.reply('notificationsShow', { events, quiet, reminder, zone, chat, email });
}
