import {
  ActivityHandler,
  ActivityTypes,
  type Attachment,
  AttachmentLayoutTypes,
  type ConversationState,
  MessageFactory,
  type StatePropertyAccessor,
  type TurnContext,
} from 'botbuilder';
import { type Logger } from '@fieldops/platform';
import { InspectionApiRefusal, InspectionApiUnavailable } from '../inspection-api/inspection-api.errors';
import {
  type DueCheck,
  CHECKED_BY_MAX_LENGTH,
  type CheckRecord,
  type Device,
  type InspectionApi,
} from '../inspection-api/inspection-api.types';
import { type BotLanguage, languageOfLocale, type Localizer } from '../phrases/localizer';
import { type PhraseKey, type PhraseParameters } from '../phrases/phrase-catalogue';
import { deviceHeroCard, itemAdaptiveCard } from './cards';
import { activePlanOf } from './record-plan';
import { downloadAttachment, PhotoDownloadError } from './photo-download';
import { parseUserCommand, type RecordAnswer } from './user-command';

/** The record a photo sent next is attached to (per conversation). */
interface LastRecord {
  id: number;
  device: string;
  item: string;
}

export interface InspectionBotOptions {
  api: InspectionApi;
  localizer: Localizer;
  conversationState: ConversationState;
  logger: Logger;
  defaultLanguage?: BotLanguage;
  /** Devices shown in one carousel. */
  carouselSize?: number;
  /** Records shown by "history". */
  historySize?: number;
  maxPhotoBytes?: number;
  /** The locale the chat page asked for, when the activity has none (the welcome). */
  pageLocaleOf?: (conversationId: string) => string | undefined;
  /** The clock of "today" (tests). */
  now?: () => Date;
}

/**
 * The inspection conversation: a welcome on join; "devices" or a search term → a carousel of device cards;
 * a device → one card per check item with ok/warn/fail; each answer → a CheckRecord; a photo → attached to the
 * last record; "today" → the devices due in their plan's period; "history <code>" → the last records.
 */
export class InspectionBot extends ActivityHandler {
  private readonly lastRecord: StatePropertyAccessor<LastRecord | undefined>;
  private readonly api: InspectionApi;
  private readonly localizer: Localizer;
  private readonly logger: Logger;
  private readonly defaultLanguage: BotLanguage;
  private readonly carouselSize: number;
  private readonly historySize: number;
  private readonly maxPhotoBytes: number;
  private readonly now: () => Date;

  constructor(private readonly options: InspectionBotOptions) {
    super();
    this.api = options.api;
    this.localizer = options.localizer;
    this.logger = options.logger;
    this.defaultLanguage = options.defaultLanguage ?? 'en';
    this.carouselSize = options.carouselSize ?? 10;
    this.historySize = options.historySize ?? 5;
    this.maxPhotoBytes = options.maxPhotoBytes ?? 10 * 1024 * 1024;
    this.now = options.now ?? (() => new Date());
    this.lastRecord = options.conversationState.createProperty<LastRecord | undefined>('lastRecord');

    this.onMembersAdded(async (context, next) => {
      for (const member of context.activity.membersAdded ?? []) {
        if (member.id === context.activity.recipient.id) continue;
        await this.reply(context, 'welcome', { name: member.name || member.id });
      }
      await next();
    });

    this.onMessage(async (context, next) => {
      await this.answer(context);
      await next();
    });
  }

  /** Runs the turn, then saves the conversation state. */
  override async run(context: TurnContext): Promise<void> {
    await super.run(context);
    await this.options.conversationState.saveChanges(context, false);
  }

  private language(context: TurnContext): BotLanguage {
    const locale =
      context.activity.locale ?? this.options.pageLocaleOf?.(context.activity.conversation.id) ?? undefined;
    return languageOfLocale(locale, this.defaultLanguage);
  }

  private async text(context: TurnContext, key: PhraseKey, parameters?: PhraseParameters): Promise<string> {
    return this.localizer.phrase(this.language(context), key, parameters);
  }

  private async reply(context: TurnContext, key: PhraseKey, parameters?: PhraseParameters): Promise<void> {
    await context.sendActivity(MessageFactory.text(await this.text(context, key, parameters)));
  }

  private async typing(context: TurnContext): Promise<void> {
    await context.sendActivity({ type: ActivityTypes.Typing });
  }

  private async answer(context: TurnContext): Promise<void> {
    const command = parseUserCommand(context.activity);
    try {
      switch (command.kind) {
        case 'nothing':
          return;
        case 'devices':
          return await this.showDevices(context);
        case 'search':
          return await this.showDevices(context, command.term);
        case 'check':
          return await this.showDevice(context, command.code);
        case 'record':
          return await this.record(context, command.answer);
        case 'photo':
          return await this.attachPhoto(context, command.attachment);
        case 'today':
          return await this.showDueChecks(context);
        case 'statusWithoutCard':
          return await this.reply(context, 'statusWithoutCard');
        case 'history':
          return await this.showHistory(context, command.code);
      }
    } catch (error) {
      if (error instanceof InspectionApiRefusal) {
        await this.reply(context, 'refused', { reasons: error.reasons.join(' ') });
      } else if (error instanceof InspectionApiUnavailable) {
        this.logger.warn({ err: error }, 'inspection-api unavailable');
        await this.reply(context, 'unavailable');
      } else {
        throw error;
      }
    }
  }

  private async showDevices(context: TurnContext, search?: string): Promise<void> {
    await this.typing(context);
    const page = await this.api.listDevices({ search, pageSize: this.carouselSize });
    if (page.count === 0) {
      await this.reply(context, search ? 'noMatch' : 'noDevices', { term: search ?? '' });
      return;
    }
    const language = this.language(context);
    const [intro, more, notSet, startCheck] = await this.localizer.phrases(language, [
      ['devicesIntro', { count: page.count }],
      ['devicesMore', { shown: page.results.length, count: page.count }],
      ['notSet'],
      ['startCheck'],
    ]);
    const cards: Attachment[] = [];
    for (const device of page.results) {
      const [subtitle, details] = await this.localizer.phrases(language, [
        ['deviceSubtitle', { code: device.code }],
        ['deviceDetails', { location: device.location || notSet, group: device.group || notSet }],
      ]);
      cards.push(
        deviceHeroCard(device, {
          subtitle: subtitle ?? '',
          details: details ?? '',
          startCheck: startCheck ?? '',
        }),
      );
    }
    const introduction = page.count > page.results.length ? `${intro} ${more}` : (intro ?? '');
    await context.sendActivity(MessageFactory.carousel(cards, introduction));
  }

  private async showDevice(context: TurnContext, code: string): Promise<void> {
    await this.typing(context);
    const device = await this.api.findDeviceByCode(code);
    if (!device) {
      await this.reply(context, 'unknownDevice', { code });
      return;
    }
    if (device.check_items.length === 0) {
      await this.reply(context, 'noItems', { device: device.name, code: device.code });
      return;
    }
    const language = this.language(context);
    const [intro, valuePlaceholder, notePlaceholder, ok, warn, fail] = await this.localizer.phrases(
      language,
      [
        ['deviceIntro', { device: device.name, code: device.code }],
        ['valuePlaceholder'],
        ['notePlaceholder'],
        ['ok'],
        ['warn'],
        ['fail'],
      ],
    );
    const cards: Attachment[] = [];
    for (const item of device.check_items) {
      const expected = item.expected_value
        ? await this.localizer.phrase(language, 'expectedValue', { expected: item.expected_value })
        : await this.localizer.phrase(language, 'noExpectedValue');
      cards.push(
        itemAdaptiveCard(device, item, {
          expected,
          valuePlaceholder: valuePlaceholder ?? '',
          notePlaceholder: notePlaceholder ?? '',
          statuses: { ok: ok ?? 'ok', warn: warn ?? 'warn', fail: fail ?? 'fail' },
        }),
      );
    }
    const message = MessageFactory.carousel(cards, intro);
    message.attachmentLayout = AttachmentLayoutTypes.List;
    await context.sendActivity(message);
  }

  private inspectorOf(context: TurnContext): string {
    const from = context.activity.from;
    return (from.name?.trim() || from.id).slice(0, CHECKED_BY_MAX_LENGTH);
  }

  private async record(context: TurnContext, answer: RecordAnswer): Promise<void> {
    await this.typing(context);
    let device: Device;
    try {
      device = await this.api.getDevice(answer.device);
    } catch (error) {
      if (error instanceof InspectionApiRefusal && error.status === 404) {
        await this.reply(context, 'staleCard');
        return;
      }
      throw error;
    }
    const item = device.check_items.find((candidate) => candidate.id === answer.item);
    if (!item) {
      await this.reply(context, 'staleCard');
      return;
    }
    const plan = activePlanOf(await this.api.listActivePlans(), device.id);
    const record = await this.api.createRecord({
      device: device.id,
      item: item.id,
      status: answer.status,
      value: answer.value,
      note: answer.note,
      checked_by: this.inspectorOf(context),
      plan: plan?.id ?? null,
    });
    await this.lastRecord.set(context, { id: record.id, device: device.name, item: item.name });
    const status = await this.text(context, answer.status);
    await this.reply(context, plan ? 'recordedInPlan' : 'recorded', {
      status,
      item: item.name,
      device: device.name,
      plan: plan?.name ?? '',
    });
  }

  private async attachPhoto(
    context: TurnContext,
    attachment: { contentUrl: string; contentType: string; name: string },
  ): Promise<void> {
    const last = await this.lastRecord.get(context);
    if (!last) {
      await this.reply(context, 'photoWithoutRecord');
      return;
    }
    if (!attachment.contentType.startsWith('image/')) {
      await this.reply(context, 'photoNotImage');
      return;
    }
    await this.typing(context);
    let photo;
    try {
      photo = await downloadAttachment(attachment, this.maxPhotoBytes);
    } catch (error) {
      if (!(error instanceof PhotoDownloadError)) throw error;
      this.logger.warn({ err: error }, 'photo download failed');
      await this.reply(context, 'photoDownloadFailed');
      return;
    }
    await this.api.attachPhoto(last.id, photo);
    await this.reply(context, 'photoAttached', { item: last.item, device: last.device });
  }

  /** `today`: the devices with checks due or overdue, as inspection-api's due rules decide (one definition). */
  private async showDueChecks(context: TurnContext): Promise<void> {
    await this.typing(context);
    const { hasPlans, open } = await this.api.dueChecks(this.now());
    if (!hasPlans) {
      await this.reply(context, 'todayNoPlans');
      return;
    }
    // One line per device with an open check, under the plan of its first open check.
    const due: Array<{ device: number; plan: DueCheck['plan'] }> = [];
    for (const check of open)
      if (!due.some((entry) => entry.device === check.device.id))
        due.push({ device: check.device.id, plan: check.plan });
    if (due.length === 0) {
      await this.reply(context, 'todayNothingDue');
      return;
    }
    const language = this.language(context);
    const lines: string[] = [await this.localizer.phrase(language, 'todayIntro', { count: due.length })];
    const cards: Attachment[] = [];
    const [notSet, startCheck] = await this.localizer.phrases(language, [['notSet'], ['startCheck']]);
    for (const scheduled of due) {
      const device = await this.api.getDevice(scheduled.device);
      const frequency = await this.localizer.phrase(language, scheduled.plan.frequency);
      lines.push(
        `- ${await this.localizer.phrase(language, 'todayLine', {
          device: device.name,
          code: device.code,
          plan: scheduled.plan.name,
          frequency,
        })}`,
      );
      const [subtitle, details] = await this.localizer.phrases(language, [
        ['deviceSubtitle', { code: device.code }],
        ['deviceDetails', { location: device.location || notSet, group: device.group || notSet }],
      ]);
      cards.push(
        deviceHeroCard(device, {
          subtitle: subtitle ?? '',
          details: details ?? '',
          startCheck: startCheck ?? '',
        }),
      );
    }
    await context.sendActivity(MessageFactory.carousel(cards, lines.join('\n')));
  }

  private async showHistory(context: TurnContext, code: string | undefined): Promise<void> {
    if (!code) {
      await this.reply(context, 'historyUsage', { example: 'PUMP-001' });
      return;
    }
    await this.typing(context);
    const device = await this.api.findDeviceByCode(code);
    if (!device) {
      await this.reply(context, 'unknownDevice', { code });
      return;
    }
    const records = await this.api.lastRecords(device.id, this.historySize);
    if (records.length === 0) {
      await this.reply(context, 'historyNone', { device: device.name, code: device.code });
      return;
    }
    const language = this.language(context);
    const lines = [
      await this.localizer.phrase(language, 'historyIntro', { device: device.name, code: device.code }),
    ];
    for (const record of records) lines.push(`- ${await this.historyLine(language, device, record)}`);
    await context.sendActivity(MessageFactory.text(lines.join('\n')));
  }

  private async historyLine(language: BotLanguage, device: Device, record: CheckRecord): Promise<string> {
    const item = device.check_items.find((candidate) => candidate.id === record.item);
    const [status, anItem] = await this.localizer.phrases(language, [[record.status], ['anItem']]);
    const value = record.value
      ? await this.localizer.phrase(language, 'historyValue', { value: record.value })
      : '';
    return this.localizer.phrase(language, 'historyLine', {
      date: record.checked_at.slice(0, 16).replace('T', ' '),
      status: status ?? record.status,
      item: item?.name ?? anItem ?? '',
      value,
      inspector: record.checked_by || '?',
    });
  }
}
