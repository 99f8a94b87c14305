import { type CheckPlan, type PlanFrequency } from '../inspection-api/inspection-api.types';

/** Start of the current period of a frequency, in UTC: today, this week (Monday) or this month. */
export function periodStart(frequency: PlanFrequency, now: Date): Date {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (frequency) {
    case 'daily':
      return start;
    case 'weekly': {
      const daysSinceMonday = (start.getUTCDay() + 6) % 7;
      start.setUTCDate(start.getUTCDate() - daysSinceMonday);
      return start;
    }
    case 'monthly':
      start.setUTCDate(1);
      return start;
  }
}

export interface ScheduledCheck {
  device: number;
  plan: CheckPlan;
  since: Date;
}

/**
 * One entry per device of the active plans, with the start of its current period. A device in several plans
 * keeps the plan with the shortest period (checked most often), then the lowest plan id.
 */
export function scheduledChecks(plans: readonly CheckPlan[], now: Date): ScheduledCheck[] {
  const rank: Record<PlanFrequency, number> = { daily: 0, weekly: 1, monthly: 2 };
  const byDevice = new Map<number, ScheduledCheck>();
  const ordered = [...plans]
    .filter((plan) => plan.active)
    .sort((a, b) => rank[a.frequency] - rank[b.frequency] || a.id - b.id);
  for (const plan of ordered) {
    for (const device of plan.devices) {
      if (!byDevice.has(device))
        byDevice.set(device, { device, plan, since: periodStart(plan.frequency, now) });
    }
  }
  return [...byDevice.values()].sort((a, b) => a.device - b.device);
}

/** The active plan a new record of the device belongs to: the first (lowest id) that lists it. */
export function activePlanOf(plans: readonly CheckPlan[], device: number): CheckPlan | undefined {
  return [...plans].sort((a, b) => a.id - b.id).find((plan) => plan.active && plan.devices.includes(device));
}
