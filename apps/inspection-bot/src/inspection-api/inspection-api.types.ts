/** inspection-api's resources as the bot reads them (shared/specs/inspection-service.md). */
export type CheckStatus = 'ok' | 'warn' | 'fail';
export const CHECK_STATUSES: readonly CheckStatus[] = ['ok', 'warn', 'fail'];
export type PlanFrequency = 'daily' | 'weekly' | 'monthly';

export interface CheckItem {
  id: number;
  name: string;
  description: string;
  expected_value: string;
  device: number;
  /** inspection-api's typed items: `text`, `number` (min, max, unit), `yes_no`, `choice` (options). */
  type?: 'text' | 'number' | 'yes_no' | 'choice';
  unit?: string;
  min?: number | null;
  max?: number | null;
  options?: string[];
}

export interface Device {
  id: number;
  check_items: CheckItem[];
  created_at: string;
  name: string;
  code: string;
  location: string;
  group: string;
}

export interface CheckPlan {
  id: number;
  devices: number[];
  name: string;
  frequency: PlanFrequency;
  active: boolean;
}

export interface CheckRecord {
  id: number;
  status: CheckStatus;
  value: string;
  note: string;
  photo: string | null;
  attachment: string | null;
  checked_at: string;
  checked_by: string;
  plan: number | null;
  device: number;
  item: number | null;
  /** How the record was made: `chat`, `qr` (from a scanned device label) or `api`. */
  source?: RecordSource;
  /** inspection-api flagged the value as outside its item's definition. */
  out_of_range?: boolean;
}

export type RecordSource = 'chat' | 'qr' | 'api';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * inspection-api's `checked_by` max_length (its DRF field and VARCHAR(150) column): the inspector's name the bot
 * records is cut to it, and the chat page's name field holds no more.
 */
export const CHECKED_BY_MAX_LENGTH = 150;

export interface NewCheckRecord {
  device: number;
  item: number;
  status: CheckStatus;
  value?: string;
  note?: string;
  checked_by: string;
  plan?: number | null;
  source?: RecordSource;
  /**
   * Record only if the item has no record since then (a date: a due period's `period_start`; or an instant): else
   * inspection-api answers 409 `already_answered` with that record (`AlreadyAnswered`).
   */
  if_unanswered_since?: string;
}

/** A write's `Idempotency-Key`: inspection-api makes one record (or stores one photo) per key. */
export interface WriteOptions {
  idempotencyKey?: string;
  /** Write with this person's access token instead of the bot's service account (a 401 is then final). */
  accessToken?: string;
}

export interface PhotoFile {
  data: Buffer;
  name: string;
  contentType: string;
}

export interface NewDevice {
  name: string;
  code: string;
  location?: string;
  group?: string;
}

export interface NewCheckItem {
  device: number;
  name: string;
  description?: string;
  expected_value?: string;
}

export interface NewCheckPlan {
  name: string;
  devices: number[];
  frequency: PlanFrequency;
  active?: boolean;
}

/** A check of an active plan as `GET /api/due/` lists it (inspection-api owns the rules: docs/protocols/inspection-api.md, "Due checks"). */
export interface DueCheck {
  /**
   * `assignees`: the ids of the users the plan is assigned to; `assignee_teams`: its teams, whose members count as
   * its assignees (inspection-api's rule, `plan-assignment.ts`).
   */
  plan: {
    id: number;
    name: string;
    frequency: PlanFrequency;
    assignees?: number[];
    assignee_teams?: Array<{ id: number; name: string; members: number[] }>;
  };
  device: { id: number; code: string; name: string; group: string; location: string };
  item: { id: number; name: string } | null;
  status: 'due' | 'overdue' | 'done';
  period_start: string;
  period_end: string;
  last_record: { id: number; status: CheckStatus; checked_at: string; checked_by: string } | null;
}

/** What is not done yet on a day, as inspection-api decides it. */
export interface DueToday {
  /** Whether any active plan has devices at all. */
  hasPlans: boolean;
  /** The checks due or overdue, by plan, device and item. */
  open: DueCheck[];
}

/**
 * What the bot needs from inspection-api (the port its dialog depends on). `InspectionApiClient` is the HTTP
 * implementation; unit tests of pure dialog logic may use a fake.
 */
/** An inspection-api account as `GET /api/users/{id}/` shows it (the bot's service account is a supervisor). */
export interface InspectionUser {
  id: number;
  username: string;
  is_active: boolean;
  role?: string;
}

export interface InspectionApi {
  /** The account with this id, or undefined when there is none. */
  findUser(id: number): Promise<InspectionUser | undefined>;
  /** The first page of devices, optionally filtered by a search term (name or code, case-insensitive). */
  listDevices(options?: { search?: string; pageSize?: number }): Promise<Page<Device>>;
  /** The device whose code is exactly `code` (case-insensitive), if any. */
  findDeviceByCode(code: string): Promise<Device | undefined>;
  getDevice(id: number): Promise<Device>;
  /** Every active plan (all pages). */
  listActivePlans(): Promise<CheckPlan[]>;
  /** The checks due or overdue on the day of `at` in inspection-api's time zone (all pages). */
  dueChecks(at: Date): Promise<DueToday>;
  /**
   * The checks of one device in one plan's current period, on the day of `at` in inspection-api's time zone
   * (`GET /api/due/?plan=&device=&date=`: the API's due rules decide the period and what is done in it).
   */
  periodChecks(filter: { device: number; plan: number }, at: Date): Promise<DueCheck[]>;
  /** A device's records checked at or after `checkedAfter` (an instant), newest first, at most 100. */
  recordsSince(device: number, checkedAfter: string): Promise<CheckRecord[]>;
  /** The records `checkedBy` (a user name) made at or after `checkedAfter` (an instant), newest first, at most 100. */
  recordsBy(checkedBy: string, checkedAfter: string): Promise<CheckRecord[]>;
  /** Records of a device checked at or after `checkedAfter`, newest last. */
  countRecords(filter: { device: number; checkedAfter?: Date }): Promise<number>;
  /** The device's last `count` records, newest first. */
  lastRecords(device: number, count: number): Promise<CheckRecord[]>;
  /** Creates a record; a repeat with the same `idempotencyKey` answers the first record. */
  createRecord(record: NewCheckRecord, options?: WriteOptions): Promise<CheckRecord>;
  /** Uploads the photo of a record (multipart PATCH), once per `idempotencyKey`. */
  attachPhoto(recordId: number, photo: PhotoFile, options?: WriteOptions): Promise<CheckRecord>;
  getRecord(id: number): Promise<CheckRecord>;
  setRecordStatus(recordId: number, status: CheckStatus): Promise<CheckRecord>;
  /**
   * The actions assigned to `person` that are not verified or cancelled: open and in progress first (the overdue
   * first among them), then those done and waiting for verification. Read as that person (`X-On-Behalf-Of`), as
   * every action call below: the API applies the person's own rights and writes their name.
   */
  myActions(person: number): Promise<{ actions: CorrectiveAction[]; more: boolean }>;
  getTeam(id: number, person: number): Promise<Team>;
  getAction(id: number, person: number): Promise<CorrectiveAction>;
  actionComments(id: number, person: number): Promise<ActionComment[]>;
  commentOnAction(id: number, text: string, person: number): Promise<ActionComment>;
  /** Moves the action to done with its close-out note and photo (one multipart PATCH). */
  closeAction(
    id: number,
    closeOut: { note: string; photo: PhotoFile },
    person: number,
    options?: WriteOptions,
  ): Promise<CorrectiveAction>;
  /** A person's notification preferences (`/api/users/{id}/notifications/`). */
  notificationPreferences(userId: number): Promise<NotificationPreferences>;
  /** Changes some of them (PATCH); inspection-api validates. */
  changeNotificationPreferences(
    userId: number,
    change: Partial<Omit<NotificationPreferences, 'user' | 'updated_at'>>,
  ): Promise<NotificationPreferences>;
}

/** A corrective action (docs/protocols/inspection-api.md, "Corrective actions"). */
export type ActionStatus = 'open' | 'in_progress' | 'done' | 'verified' | 'cancelled';

export interface CorrectiveAction {
  id: number;
  title: string;
  description: string;
  record: number | null;
  device: number | null;
  item: number | null;
  assignee: number | null;
  assignee_username: string | null;
  /** The team it is assigned to (its members' action), or null. */
  assignee_team: number | null;
  assignee_team_name: string | null;
  due_date: string | null;
  priority: 'low' | 'medium' | 'high';
  status: ActionStatus;
  overdue: boolean;
  close_out_note: string;
  close_out_photo: string | null;
}

/** A team (`/api/teams/`). */
export interface Team {
  id: number;
  name: string;
  members: number[];
}

export interface ActionComment {
  id: number;
  action: number;
  text: string;
  author: string;
  created_at: string;
}

/** docs/protocols/notifications.md */
export interface NotificationPreferences {
  user: number;
  events: string[];
  quiet_hours_start: string | null;
  quiet_hours_end: string | null;
  time_zone: string | null;
  reminder_time: string | null;
  /** Where notification emails go; null: no email. */
  email: string | null;
  language: string | null;
  email_digest: boolean;
  /** Whether the chosen events are also sent in the chat. */
  chat: boolean;
  updated_at: string | null;
}
