import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type Activity,
  badArgument,
  type BotFrameworkError,
  type ChannelAccount,
  forbidden,
  unauthorized,
} from '@fieldops/contracts';
import {
  botAccount,
  CONVERSATION_STORE,
  ConversationLog,
  type ConversationRecord,
  type ConversationStore,
  parseActivityId,
  stampHistoryActivity,
  type StoredActivity,
} from '@fieldops/conversation-store';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { BotRegistry } from '../bots/bot-registry';
import { type BotRegistration } from '../bots/registered-bot';
import { assertValidBotActivity } from '../cards/activity-validation';
import { isPlatformRefusal, RefusedReplies } from '../delivery/refused-replies';

/** A conversation the caller may act on, and its bot. */
export interface ConversationAccess {
  record: ConversationRecord;
  bot: BotRegistration;
}

export function unknownConversation(conversationId: string): BotFrameworkError {
  return badArgument(`The conversationId ${conversationId} doesn't match a known conversation`, 404);
}

/**
 * What bots do to conversations through `/v3`: access checks (token's bot = conversation's bot; anonymous
 * callers only for anonymous bots) and validation; stamping, the append to the store and the publish on the bus
 * are the shared `ConversationLog`'s (libs/conversation-store).
 */
@Injectable()
export class BotConversationsService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    private readonly log: ConversationLog,
    private readonly registry: BotRegistry,
    private readonly refusedReplies: RefusedReplies,
  ) {}

  /** 401 anonymous caller of a non-anonymous bot, 404 unknown conversation, 403 another bot's conversation. */
  async access(conversationId: string, caller: BotPrincipal | undefined): Promise<ConversationAccess> {
    const record = await this.store.get(conversationId);
    const bot = record ? this.registry.findById(record.botId) : undefined;
    if (!caller) {
      if (!bot?.anonymous) throw bearerRequired();
      return { record: record!, bot };
    }
    if (!record || !bot) throw unknownConversation(conversationId);
    if (this.registry.find(caller.appId)?.id !== bot.id)
      throw forbidden(`The bot ${caller.appId} is not part of this conversation`);
    return { record, bot };
  }

  /** 401 for an anonymous caller where no anonymous bot's resource can be meant (e.g. a malformed attachment id). */
  requireCaller(caller: BotPrincipal | undefined): asserts caller is BotPrincipal {
    if (!caller) throw bearerRequired();
  }

  /** The bot a caller acts as outside any conversation (CreateConversation). */
  callerBot(caller: BotPrincipal | undefined, named: unknown): BotRegistration {
    if (caller) {
      const bot = this.registry.find(caller.appId);
      if (!bot) throw bearerRequired();
      return bot;
    }
    const id = typeof named === 'object' && named !== null ? (named as { id?: unknown }).id : undefined;
    const bot = typeof id === 'string' ? (this.registry.findById(id) ?? this.registry.find(id)) : undefined;
    if (!bot?.anonymous) throw bearerRequired();
    return bot;
  }

  /**
   * SendToConversation (no `replyToId`) and ReplyToActivity: the caller's access to the conversation, then the post
   * (validated, stamped, appended, published); answers the stamped id. The replied-to activity is not looked up:
   * conversationUpdates the bot answers are not in the log. A reply the platform refuses with 503 is remembered for
   * the delivery of the activity it answers ({@link RefusedReplies}).
   */
  async send(
    caller: BotPrincipal | undefined,
    conversationId: string,
    body: unknown,
    replyToId?: string,
  ): Promise<{ id: string }> {
    try {
      const access = await this.access(conversationId, caller);
      const stored = await this.post(access, body, replyToId);
      return { id: stored.activity.id! };
    } catch (error) {
      if (replyToId !== undefined && isPlatformRefusal(error))
        await this.refusedReplies.note(conversationId, replyToId);
      throw error;
    }
  }

  async post(access: ConversationAccess, body: unknown, replyToId?: string): Promise<StoredActivity> {
    assertValidBotActivity(body);
    const activity = body as Activity;
    return this.log.appendFromBot(
      access.record.conversationId,
      { ...activity, ...(replyToId !== undefined && { replyToId }) },
      access.bot,
    );
  }

  /** The log entry of `activityId` in this conversation, or 404 BadArgument. */
  async find(access: ConversationAccess, activityId: string): Promise<StoredActivity> {
    const named = parseActivityId(activityId);
    const conversationId = access.record.conversationId;
    if (named?.conversationId === conversationId) {
      const [entry] = await this.store.read(conversationId, named.seq - 1, 1);
      // A voided seq (an append its replicas never confirmed) reads as the next entry: not the one named.
      if (entry?.seq === named.seq) return entry;
    }
    throw badArgument(`The activity id ${activityId} was not found`, 404);
  }

  /**
   * UpdateActivity: the log is append-only and Direct Line has no update event, so the new version is appended
   * as a `messageUpdate` activity whose `replyToId` names the updated one; answers the updated activity's id.
   */
  async update(access: ConversationAccess, activityId: string, body: unknown): Promise<{ id: string }> {
    const original = await this.find(access, activityId);
    this.assertOwnActivity(access, original);
    assertValidBotActivity(body);
    const activity = body as Activity;
    if (typeof activity.id === 'string' && activity.id !== activityId)
      throw badArgument('uri activity id does not match payload activity id');
    await this.log.appendFromBot(
      access.record.conversationId,
      { ...activity, type: 'messageUpdate', replyToId: activityId },
      access.bot,
    );
    return { id: activityId };
  }

  /** DeleteActivity: appends a `messageDelete` activity whose `replyToId` names the deleted one. */
  async delete(access: ConversationAccess, activityId: string): Promise<void> {
    const original = await this.find(access, activityId);
    this.assertOwnActivity(access, original);
    await this.log.appendFromBot(
      access.record.conversationId,
      { type: 'messageDelete', replyToId: activityId },
      access.bot,
    );
  }

  members(access: ConversationAccess): ChannelAccount[] {
    const members: ChannelAccount[] = [botAccount(access.bot)];
    if (access.record.userId)
      members.push({
        id: access.record.userId,
        ...(access.record.userName !== undefined && { name: access.record.userName }),
        role: 'user',
      });
    return members;
  }

  /**
   * CreateConversation: with one user member, the user's home conversation with the bot (created when there is
   * none); with none, a new conversation.
   */
  async create(
    bot: BotRegistration,
    parameters: Record<string, unknown>,
  ): Promise<{ record: ConversationRecord; initial?: StoredActivity }> {
    const members = parameters.members;
    if (members !== undefined && !Array.isArray(members))
      throw badArgument('members: must be a list of ChannelAccount');
    const list = (members ?? []) as unknown[];
    if (list.length > 1) throw badArgument('members: Direct Line conversations have one user');
    const [member] = list as Array<Record<string, unknown> | undefined>;
    if (
      member !== undefined &&
      (typeof member !== 'object' || member === null || typeof member.id !== 'string')
    )
      throw badArgument('members[0].id: must be a string');
    if (parameters.isGroup === true) throw badArgument('isGroup: Direct Line has no group conversations');
    if (parameters.activity !== undefined) assertValidBotActivity(parameters.activity);
    const candidate: ConversationRecord = {
      conversationId: randomBytes(16).toString('base64url'),
      botId: bot.id,
      createdAt: Date.now(),
      ...(member && { userId: member.id as string }),
      ...(member && typeof member.name === 'string' && { userName: member.name }),
    };
    // One user member: that user's home conversation with the bot (one per bot and user, as Teams keeps one 1:1
    // chat), which a chat page opens with a token for it (relay-gateway's tokens/generate `homeConversation`).
    const record =
      candidate.userId === undefined
        ? candidate
        : await this.store.homeConversation({ ...candidate, userId: candidate.userId });
    if (candidate.userId === undefined) await this.store.create(candidate);
    const initial =
      parameters.activity === undefined
        ? undefined
        : await this.log.appendFromBot(record.conversationId, parameters.activity as Activity, bot);
    return { record, initial };
  }

  /** SendConversationHistory: each activity validated, then appended in order. */
  async history(access: ConversationAccess, body: unknown): Promise<{ id: string }> {
    const activities =
      typeof body === 'object' && body !== null ? (body as { activities?: unknown }).activities : undefined;
    if (!Array.isArray(activities)) throw badArgument('activities: must be a list of activities');
    activities.forEach((activity, index) => {
      assertValidBotActivity(activity, `activities[${index}].`);
    });
    for (const activity of activities as Activity[])
      await this.log.append(stampHistoryActivity(access.record.conversationId, activity));
    return { id: `Processed ${activities.length} of ${activities.length} activities successfully.` };
  }

  private assertOwnActivity(access: ConversationAccess, entry: StoredActivity): void {
    if (entry.activity.from?.id !== access.bot.id)
      throw forbidden('A bot may only update or delete its own activities');
  }
}

function bearerRequired(): BotFrameworkError {
  return unauthorized('Authorization header with a Bearer token is required.');
}
