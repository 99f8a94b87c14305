import { type CheckPlan } from '../inspection-api/inspection-api.types';

/** The active plan a new record of the device belongs to: the first (lowest id) that lists it. */
export function activePlanOf(plans: readonly CheckPlan[], device: number): CheckPlan | undefined {
  return [...plans].sort((a, b) => a.id - b.id).find((plan) => plan.active && plan.devices.includes(device));
}
