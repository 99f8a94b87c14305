/**
 * Every user-facing string of the bot: English templates whose `{placeholders}` are filled after translation
 * (phrasebook.yaml holds the Simplified Chinese of each template, placeholders kept).
 */
export const PHRASES = {
  welcome:
    "Hello {name}! I record inspections. Tap Today for the checks due now, Devices to choose a device, or Help to see what I understand. Scanning a device's QR label opens its check.",
  devicesIntro: 'Devices ({count}). Choose one to start its check.',
  devicesMore: 'Showing {shown} of {count}: type a word to narrow the list.',
  noDevices: 'There are no devices yet.',
  noMatch: 'No device matches "{term}". Type "devices" to see them all.',
  deviceSubtitle: 'Code {code}',
  deviceDetails: 'Location: {location} · Group: {group}',
  notSet: 'not set',
  startCheck: 'Start check',
  unknownDevice: 'There is no device with the code "{code}". Type "devices" to see them all.',
  deviceIntro: '{device} ({code}): record a result for each item with the buttons.',
  noItems: '{device} ({code}) has no check items yet.',
  expectedValue: 'Expected: {expected}',
  noExpectedValue: 'No expected value.',
  valuePlaceholder: 'Measured value (optional)',
  notePlaceholder: 'Note (optional)',
  recorded: 'Recorded "{status}" for {item} on {device}. Send a photo now to attach it to this record.',
  recordedInPlan:
    'Recorded "{status}" for {item} on {device} (plan {plan}). Send a photo now to attach it to this record.',
  outOfRange:
    '{value} is outside the range of {item} ({range}). Is the reading right? If so, mark the check as failed.',
  markFailButton: 'Mark as fail',
  keepButton: 'Keep "{status}"',
  markedFail: 'The check of {item} is now "fail".',
  keptValue: 'Kept "{status}" for {item}, flagged as out of range.',
  statusWithoutCard:
    'Answer with the ok / warn / fail buttons of an item card: type "devices" and start a check.',
  staleCard: 'That card no longer matches the inspection data. Type "devices" to start again.',
  photoAttached: 'The photo is attached to the record of {item} on {device}.',
  photoWithoutRecord: 'Record a check first, then send the photo: it is attached to your last record.',
  photoDownloadFailed: 'I could not download the photo from the chat service. Please send it again.',
  photoNotImage: 'Only photos can be attached to a record. Please send an image file.',
  todayNothingDue: 'Nothing is due: every device in an active plan has been checked in its current period.',
  todayNoPlans: 'There is no active inspection plan.',
  todayIntro: 'Due now ({count}):',
  todayLine: '{device} ({code}): plan {plan}, {frequency}',
  historyUsage: 'Type "history" followed by a device code, for example "history {example}".',
  historyNone: '{device} ({code}) has no records yet.',
  historyIntro: 'Last records of {device} ({code}):',
  historyLine: '{date}: "{status}" for {item}{value}, by {inspector}',
  historyValue: ' (value {value})',
  anItem: 'the device',
  unknownInspector:
    'Sorry, I cannot find an active inspection account for this chat, so I cannot record anything. Please sign in again on the chat page.',
  refused: 'The inspection service refused this: {reasons}',
  unavailable: 'The inspection service is not reachable right now. Please try again in a moment.',
  failed: 'Sorry, something went wrong on my side. Please try again.',
  todayButton: 'Today',
  devicesButton: 'Devices',
  helpButton: 'Help',
  help: 'Here is what I understand:\n- "today": the checks due now\n- "devices": all devices, or type a word to search for one\n- "check" and a device code: that device\'s items; answer each with ok / warn / fail\n- "Add photo" on an answered item (or the paperclip, for your last answer): attach a photo\n- "history" and a device code: the last records of that device\n- "notifications": what I tell you and when (quiet hours, reminder time)\nScanning a device\'s QR label opens its check.',
  answeredLine: '{status} · {time} · {inspector}',
  withPhoto: 'photo attached',
  addPhoto: 'Add photo',
  checkProgress: '{answered} of {total} items answered.',
  alreadyAnswered: 'This item is already answered: {answer}.',
  alreadyAnsweredPlain: 'This item is already answered.',
  photoSendNow: 'Send the photo now: it will be attached to the record of {item} on {device}.',
  photoNotYours: 'That record is not one of yours, so I cannot attach a photo to it.',
  photoRecordGone: 'That record no longer exists. Answer the item again, then add the photo.',
  qrUnknown:
    'The scanned label\'s code "{code}" matches no device. Type "devices" to choose one, and ask a supervisor for a new label.',
  qrOpened: 'Opened from the QR label of {device} ({code}).',
  notificationsShow:
    'Your notifications: {events}.\nQuiet hours: {quiet}. Due-check reminders: {reminder}. Time zone: {zone}.\nChange them with "quiet 22:00-07:00", "remind 08:00", "timezone Asia/Shanghai" or "notifications off" ("quiet off", "remind off" to clear).',
  notificationsSaved: 'Saved.',
  notificationsNone: 'none',
  notificationsWhenDue: 'when checks fall due',
  notificationsServiceZone: "the service's",
  eventRecordFailed: 'failed checks',
  eventRecordWarned: 'checks with a warning',
  eventDeviceArchived: 'archived devices',
  eventActionAssigned: 'actions assigned to you',
  eventActionDone: 'actions done',
  eventActionVerified: 'actions verified',
  eventCheckDue: 'checks due',
  eventCheckOverdue: 'overdue checks',
  eventActionOverdue: 'overdue actions',
  ok: 'ok',
  warn: 'warn',
  fail: 'fail',
  daily: 'daily',
  weekly: 'weekly',
  monthly: 'monthly',
} as const;

export type PhraseKey = keyof typeof PHRASES;
export type PhraseParameters = Record<string, string | number>;

/** Fills `{name}` placeholders; unknown ones stay as they are. */
export function fillPlaceholders(template: string, parameters: PhraseParameters = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in parameters ? String(parameters[name]) : whole,
  );
}
