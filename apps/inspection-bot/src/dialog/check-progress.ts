import {
  type CheckPlan,
  type CheckRecord,
  type DueCheck,
  type InspectionApi,
} from '../inspection-api/inspection-api.types';
import { type AnsweredItem } from './dialog-state';

/** Item id → its answer in the current period. */
export type CheckAnswers = Record<string, AnsweredItem>;

/**
 * The items answered in the plan's current period, from inspection-api's due checks of the device (a `done` check's
 * last record is the answer) and the device's records since the earliest of them (which of them carry a photo).
 * A device's check without items (`item: null`) is not an item card, so it is left out.
 */
export function answersOfPeriod(checks: readonly DueCheck[], records: readonly CheckRecord[]): CheckAnswers {
  const withPhoto = new Set(records.filter((record) => record.photo !== null).map((record) => record.id));
  const answers: CheckAnswers = {};
  for (const check of checks) {
    if (check.status !== 'done' || !check.item || !check.last_record) continue;
    const last = check.last_record;
    answers[String(check.item.id)] = {
      recordId: last.id,
      status: last.status,
      checkedAt: last.checked_at,
      inspector: last.checked_by,
      photo: withPhoto.has(last.id),
    };
  }
  return answers;
}

/**
 * What a check shows as answered: the period's answers from inspection-api, and what this conversation answered that
 * the API does not show as done (a device outside every active plan has no period). An answer of the conversation
 * that is the period's record keeps the key of the tap that made it and its photo (a photo this conversation just attached).
 */
export function mergedAnswers(kept: CheckAnswers, period: CheckAnswers): CheckAnswers {
  const merged: CheckAnswers = { ...kept };
  for (const [item, answer] of Object.entries(period)) {
    const mine = kept[item];
    merged[item] =
      mine?.recordId === answer.recordId
        ? {
            ...answer,
            photo: answer.photo || mine.photo,
            ...(mine.key ? { key: mine.key } : {}),
          }
        : answer;
  }
  return merged;
}

/** The answers of a device's current period, and when that period started (`period_start`, a date; none without a plan). */
export interface PeriodProgress {
  answers: CheckAnswers;
  periodStart?: string;
}

/**
 * The device's items answered in the current period of `plan` (the plan its new records go to), read from
 * inspection-api: a bot restart, a new conversation or another device shows the same progress. Nothing without a plan.
 */
export async function periodProgress(
  api: InspectionApi,
  device: number,
  plan: CheckPlan | undefined,
  at: Date,
): Promise<PeriodProgress> {
  if (!plan) return { answers: {} };
  const checks = await api.periodChecks({ device, plan: plan.id }, at);
  const earliest = checks
    .filter((check) => check.status === 'done' && check.item && check.last_record)
    .map((check) => check.last_record?.checked_at ?? '')
    .sort()[0];
  const records = earliest ? await api.recordsSince(device, earliest) : [];
  const periodStart = checks[0]?.period_start;
  return { answers: answersOfPeriod(checks, records), ...(periodStart ? { periodStart } : {}) };
}

/** `periodProgress`'s answers alone. */
export async function periodAnswers(
  api: InspectionApi,
  device: number,
  plan: CheckPlan | undefined,
  at: Date,
): Promise<CheckAnswers> {
  return (await periodProgress(api, device, plan, at)).answers;
}

/**
 * Since when a new answer to an item must be the first (inspection-api's `if_unanswered_since`, which decides it
 * atomically across bot instances): the start of the plan's current period; without a plan, when this conversation
 * opened the device's check (a round of its own). Neither (a card of no open check, outside every plan): no condition.
 */
export function answerRoundStart(
  periodStart: string | undefined,
  openedAt: string | undefined,
): string | undefined {
  return periodStart ?? openedAt;
}
