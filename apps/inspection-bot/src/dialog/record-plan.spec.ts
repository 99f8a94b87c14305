import { type CheckPlan } from '../inspection-api/inspection-api.types';
import { activePlanOf } from './record-plan';

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

describe('the plan of a new record', () => {
  it('is the lowest-id active plan listing its device', () => {
    const plans = [plan(5, 'daily', [1]), plan(2, 'weekly', [1], false), plan(3, 'monthly', [1])];
    expect(activePlanOf(plans, 1)?.id).toBe(3);
    expect(activePlanOf(plans, 9)).toBeUndefined();
  });
});
