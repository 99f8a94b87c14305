import { type InspectionApiClient } from '../inspection-api/inspection-api.client';
import {
  type NewCheckItem,
  type NewDevice,
  type PlanFrequency,
} from '../inspection-api/inspection-api.types';

interface DemoDevice extends NewDevice {
  items: Array<Omit<NewCheckItem, 'device'>>;
}

/** A few devices, their check items and two plans, so a new user has something to inspect. */
export const DEMO_DEVICES: readonly DemoDevice[] = [
  {
    name: 'Cooling water pump 1',
    code: 'PUMP-001',
    location: 'Plant A, hall 2',
    group: 'pumps',
    items: [
      { name: 'Outlet pressure', expected_value: '2.5–3.0 bar' },
      { name: 'Bearing temperature', expected_value: 'below 70 °C' },
      { name: 'Leaks', expected_value: 'none' },
    ],
  },
  {
    name: 'Air compressor 2',
    code: 'CMP-002',
    location: 'Plant A, hall 1',
    group: 'compressors',
    items: [
      { name: 'Oil level', expected_value: 'between min and max' },
      { name: 'Discharge temperature', expected_value: 'below 95 °C' },
    ],
  },
  {
    name: 'Fire extinguisher, entrance',
    code: 'FE-010',
    location: 'Building B, entrance',
    group: 'safety',
    items: [
      { name: 'Pressure gauge', expected_value: 'green zone' },
      { name: 'Seal intact', expected_value: 'yes' },
    ],
  },
];

export const DEMO_PLANS: ReadonlyArray<{ name: string; frequency: PlanFrequency; codes: string[] }> = [
  { name: 'Daily rounds', frequency: 'daily', codes: ['PUMP-001', 'CMP-002'] },
  { name: 'Monthly safety', frequency: 'monthly', codes: ['FE-010'] },
];

/** Creates the demo devices, items and plans through the API when there is no device at all; true if it did. */
export async function seedDemoInspectionData(client: InspectionApiClient): Promise<boolean> {
  if ((await client.listDevices({ pageSize: 1 })).count > 0) return false;
  const ids = new Map<string, number>();
  for (const { items, ...device } of DEMO_DEVICES) {
    const created = await client.createDevice(device);
    ids.set(created.code, created.id);
    for (const item of items) await client.createItem({ ...item, device: created.id });
  }
  for (const plan of DEMO_PLANS) {
    await client.createPlan({
      name: plan.name,
      frequency: plan.frequency,
      devices: plan.codes.map((code) => ids.get(code) ?? 0),
    });
  }
  return true;
}
