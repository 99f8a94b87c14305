import { type CheckPlan } from '../inspection-api/inspection-api.types';
import { activePlanOf, periodStart, scheduledChecks } from './due-checks';

const plan = (
  id: number,
  frequency: CheckPlan['frequency'],
  devices: number[],
  active = true,
): CheckPlan => ({
  id,
  name: `plan ${id}`,
  frequency,
  devices,
  active,
});

describe('due checks', () => {
  // A Wednesday.
  const now = new Date('2026-11-18T15:30:00Z');

  it('periods start today, on Monday and on the first of the month, in UTC', () => {
    expect(periodStart('daily', now).toISOString()).toBe('2026-11-18T00:00:00.000Z');
    expect(periodStart('weekly', now).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(periodStart('weekly', new Date('2026-11-22T23:00:00Z')).toISOString()).toBe(
      '2026-11-16T00:00:00.000Z',
    );
    expect(periodStart('weekly', new Date('2026-11-16T00:00:00Z')).toISOString()).toBe(
      '2026-11-16T00:00:00.000Z',
    );
    expect(periodStart('monthly', now).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('schedules each device of the active plans once, by its most frequent plan', () => {
    const checks = scheduledChecks(
      [plan(1, 'monthly', [1, 2]), plan(2, 'daily', [2, 3]), plan(3, 'daily', [4], false)],
      now,
    );
    expect(checks.map((check) => [check.device, check.plan.id, check.since.toISOString()])).toEqual([
      [1, 1, '2026-11-01T00:00:00.000Z'],
      [2, 2, '2026-11-18T00:00:00.000Z'],
      [3, 2, '2026-11-18T00:00:00.000Z'],
    ]);
  });

  it('a new record belongs to the lowest-id active plan listing its device', () => {
    const plans = [plan(5, 'daily', [1]), plan(2, 'weekly', [1], false), plan(3, 'monthly', [1])];
    expect(activePlanOf(plans, 1)?.id).toBe(3);
    expect(activePlanOf(plans, 9)).toBeUndefined();
  });
});
