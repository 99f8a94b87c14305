import { MessageFactory } from 'botbuilder';
import { type Device } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';
import { scheduledChecks } from '../due-checks';
import { presentDeviceCards } from '../presenters/device-card.presenter';

/** `today`: the devices of active plans not yet checked in their plan's current period, with their cards. */
export async function showDueChecks(turn: ConversationTurn): Promise<void> {
  await turn.typing();
  const plans = await turn.api.listActivePlans();
  if (plans.length === 0) {
    await turn.reply('todayNoPlans');
    return;
  }
  const due = [];
  for (const scheduled of scheduledChecks(plans, turn.settings.now())) {
    const done = await turn.api.countRecords({ device: scheduled.device, checkedAfter: scheduled.since });
    if (done === 0) due.push(scheduled);
  }
  if (due.length === 0) {
    await turn.reply('todayNothingDue');
    return;
  }
  const lines: string[] = [await turn.phrase('todayIntro', { count: due.length })];
  const devices: Device[] = [];
  for (const scheduled of due) {
    const device = await turn.api.getDevice(scheduled.device);
    devices.push(device);
    const frequency = await turn.phrase(scheduled.plan.frequency);
    lines.push(
      `- ${await turn.phrase('todayLine', {
        device: device.name,
        code: device.code,
        plan: scheduled.plan.name,
        frequency,
      })}`,
    );
  }
  await turn.context.sendActivity(
    MessageFactory.carousel(await presentDeviceCards(turn, devices), lines.join('\n')),
  );
}
