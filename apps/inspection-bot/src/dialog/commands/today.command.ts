import { MessageFactory } from 'botbuilder';
import { type Device, type DueCheck } from '../../inspection-api/inspection-api.types';
import { type ConversationTurn } from '../conversation-turn';
import { cardsMessage } from '../presenters/card-layout';
import { myActionsPrompt } from './actions.command';
import { presentDeviceCards } from '../presenters/device-card.presenter';

/**
 * `today`: the devices with checks due or overdue, as inspection-api's due rules decide (`GET /api/due/`, one
 * definition), with their cards; the checks of plans assigned to the signed-in inspector first, directly or through
 * a team of theirs (the line then names the team: the plan's assignment as `/api/due/` gives it, its teams with
 * their members). Then, when the inspector has actions to work on, their count with a **My actions** button.
 */
export async function showDueChecks(turn: ConversationTurn): Promise<void> {
  await showDue(turn);
  await myActionsPrompt(turn);
}

async function showDue(turn: ConversationTurn): Promise<void> {
  await turn.typing();
  const { hasPlans, open: all } = await turn.api.dueChecks(turn.settings.now());
  const me = (await turn.inspector())?.id;
  const mine = (check: DueCheck) => (me !== undefined && whose(check.plan, me) !== undefined ? 0 : 1);
  const open = [...all].sort((a, b) => mine(a) - mine(b)); // stable: the API's order otherwise
  if (!hasPlans) {
    await turn.reply('todayNoPlans');
    return;
  }
  // One line per device with an open check, under the plan of its first open check.
  const due: Array<{ device: number; plan: DueCheck['plan'] }> = [];
  for (const check of open)
    if (!due.some((entry) => entry.device === check.device.id))
      due.push({ device: check.device.id, plan: check.plan });
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
    const line = await turn.phrase('todayLine', {
      device: device.name,
      code: device.code,
      plan: scheduled.plan.name,
      frequency,
    });
    const teams = me === undefined ? undefined : whose(scheduled.plan, me);
    const team = teams?.length ? ` · ${await turn.phrase('todayTeam', { team: teams.join(', ') })}` : '';
    lines.push(`- ${line}${team}`);
  }
  await turn.context.sendActivity(MessageFactory.text(lines.join('\n')));
  await turn.context.sendActivity(cardsMessage(await presentDeviceCards(turn, devices)));
}

/**
 * Whether the plan is `person`'s, as inspection-api's due rules say (its assignees, and its teams' members): `[]`
 * when assigned to them, the names of their teams among the plan's when through a team, undefined when not theirs.
 */
export function whose(plan: DueCheck['plan'], person: number): string[] | undefined {
  if (plan.assignees?.includes(person)) return [];
  const teams = (plan.assignee_teams ?? []).filter((team) => team.members.includes(person));
  return teams.length ? teams.map((team) => team.name) : undefined;
}
