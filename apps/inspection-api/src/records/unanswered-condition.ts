import { DrfException, type FieldErrors, validationError } from '../drf/exceptions';
import { dateTimeFilter } from '../drf/filters';
import { type Input } from '../drf/serializer';
import { readCalendarDate } from '../calendar/calendar-date';
import { localInstant } from '../calendar/zoned-time';
import { type WriteDatabase } from '../idempotency/idempotency.service';

/** The write-only request field of `POST /api/records/` that makes the create conditional. */
export const UNANSWERED_FIELD = 'if_unanswered_since';

/** DRF DateTimeField's message for a value it cannot read. */
const WRONG_FORMAT =
  'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';

/** The condition a create carries: make the record only if its device's item has none since `since`. */
export interface UnansweredCondition {
  since: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `if_unanswered_since` of a create's body (JSON or form): a date-time as DRF's DateTimeField reads it (no zone:
 * UTC), or a date alone (`YYYY-MM-DD`, as `/api/due/` gives a period's `period_start`): the instant that day starts
 * in the API's time zone, as the due checks count a period. Absent, null or empty: no condition. Anything else is
 * a 400 keyed by the field: thrown, or with `errors` written there (undefined returned) so that it comes in one body
 * with the other fields' errors, as DRF reports every field's. It needs an item: without one the create answers 400
 * too (`conditionNeedsItem`).
 */
export function unansweredConditionOf(
  input: Input,
  timeZone: string,
  errors?: FieldErrors,
): UnansweredCondition | undefined {
  const wrongFormat = (): undefined => {
    if (!errors) throw validationError({ [UNANSWERED_FIELD]: [WRONG_FORMAT] });
    errors[UNANSWERED_FIELD] = [WRONG_FORMAT];
    return undefined;
  };
  let raw: unknown;
  if (input.kind === 'form') {
    const values = input.data.get(UNANSWERED_FIELD);
    raw = values?.[values.length - 1];
  } else if (input.data && typeof input.data === 'object' && !Array.isArray(input.data)) {
    raw = (input.data as Record<string, unknown>)[UNANSWERED_FIELD];
  }
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && DATE_ONLY.test(raw.trim())) {
    const date = readCalendarDate(raw.trim());
    if ('error' in date) return wrongFormat();
    return { since: localInstant(date.date, '00:00', timeZone).toISOString() };
  }
  const since = typeof raw === 'string' ? dateTimeFilter(raw, UNANSWERED_FIELD, {}) : undefined;
  if (since === undefined) return wrongFormat();
  return { since };
}

/** 400 when a condition comes without an item to hold it to. */
export function conditionNeedsItem(): DrfException {
  return validationError({ [UNANSWERED_FIELD]: ['Requires an item.'] });
}

/**
 * 409 Conflict: the item already has a record since the condition's instant. The body is DRF's `{"detail"}` with the
 * record that answered it (its representation), so a client can say who answered and when without a second read.
 */
export function alreadyAnswered(since: string, record: unknown): DrfException {
  return new DrfException(409, {
    detail: `This item already has a record since ${since}.`,
    code: 'already_answered',
    record,
  });
}

/** One lock per (device, item): the conditional creates of one item take turns, those of other items do not wait. */
export const answerLockKey = (device: number, item: number): string =>
  `check_records:answer:${device}:${item}`;

/**
 * The one owner of "the first answer to an item wins": in the create's transaction, take the item's advisory
 * transaction lock (held until the commit, so a second conditional create waits for the first to commit and then
 * sees its record; PostgreSQL's READ COMMITTED takes a new snapshot per statement), then refuse with 409 when the
 * device's item has a record checked at or after `since`. `recordJson` selects the representation of alias `r`
 * (its `$1` is the media base URL).
 */
export async function holdUnanswered(
  manager: WriteDatabase,
  condition: UnansweredCondition,
  device: number,
  item: number,
  recordJson: string,
  mediaBase: string,
): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [answerLockKey(device, item)]);
  const rows: Array<{ body: unknown }> = await manager.query(
    `SELECT ${recordJson} AS "body" FROM "check_records" r
      WHERE r."device_id" = $2 AND r."item_id" = $3 AND r."checked_at" >= $4::timestamptz
      ORDER BY r."checked_at" DESC, r."id" DESC LIMIT 1`,
    [mediaBase, device, item, condition.since],
  );
  if (rows[0]) throw alreadyAnswered(condition.since, rows[0].body);
}
