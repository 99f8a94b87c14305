import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_STORE, type ConversationStore } from '@fieldops/conversation-store';
import { badArgument, type BotFrameworkError, missingProperty } from '@fieldops/contracts';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { attachmentBytes } from './attachment-bytes';
import { BotConversationsService, type ConversationAccess } from './bot-conversations.service';

/** Bot Connector `AttachmentInfo`. */
export interface AttachmentInfo {
  name?: string;
  type: string;
  views: Array<{ viewId: string; size: number }>;
}

/** `{base64url(conversationId)}.{attachmentId}`: attachments live in their conversation in the store. */
export function publicAttachmentId(conversationId: string, attachmentId: string): string {
  return `${Buffer.from(conversationId, 'utf8').toString('base64url')}.${attachmentId}`;
}

function parsePublicAttachmentId(id: string): { conversationId: string; attachmentId: string } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) return undefined;
  return {
    conversationId: Buffer.from(id.slice(0, dot), 'base64url').toString('utf8'),
    attachmentId: id.slice(dot + 1),
  };
}

/** The stored attachment holding an original's `thumbnail` view (a store attachment of its own). */
interface ThumbnailReference {
  thumbnailAttachmentId?: string;
}

function attachmentNotFound(id: string): BotFrameworkError {
  return badArgument(`attachment[${id}] not found`, 404);
}

/**
 * UploadAttachment (`AttachmentData`, base64 bytes) and the `/v3/attachments` reads. `originalBase64` is the
 * `original` view; a `thumbnailBase64` is stored beside it (a store attachment the original points to) and served as
 * the `thumbnail` view. Reads need the same access as the attachment's conversation; an anonymous caller of an
 * unreadable id gets 401 before anything is looked up, as for every other `/v3` route.
 */
@Injectable()
export class BotAttachmentsService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    private readonly conversations: BotConversationsService,
  ) {}

  async upload(access: ConversationAccess, body: unknown): Promise<{ id: string }> {
    const data = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof data.type !== 'string' || data.type === '') throw missingProperty('type: required');
    const original = attachmentBytes(data.originalBase64);
    if (original === undefined) throw missingProperty('originalBase64: required (base64)');
    const given = data.thumbnailBase64;
    const thumbnail = given === undefined || given === null ? undefined : attachmentBytes(given);
    if (given !== undefined && given !== null && thumbnail === undefined)
      throw badArgument('thumbnailBase64: must be base64');
    const name = typeof data.name === 'string' ? { name: data.name } : {};
    const conversationId = access.record.conversationId;
    const storedThumbnail =
      thumbnail !== undefined && thumbnail.length > 0
        ? await this.store.putAttachment(conversationId, { contentType: data.type, ...name }, thumbnail)
        : undefined;
    const reference: ThumbnailReference = storedThumbnail
      ? { thumbnailAttachmentId: storedThumbnail.attachmentId }
      : {};
    const stored = await this.store.putAttachment(
      conversationId,
      { contentType: data.type, ...name, ...reference },
      original,
    );
    return { id: publicAttachmentId(access.record.conversationId, stored.attachmentId) };
  }

  async info(id: string, caller: BotPrincipal | undefined): Promise<AttachmentInfo> {
    const { attachment, thumbnail } = await this.read(id, caller);
    return {
      ...(attachment.name !== undefined && { name: attachment.name }),
      type: attachment.contentType,
      views: [
        { viewId: 'original', size: attachment.size },
        ...(thumbnail ? [{ viewId: 'thumbnail', size: thumbnail.attachment.size }] : []),
      ],
    };
  }

  async view(
    id: string,
    view: string,
    caller: BotPrincipal | undefined,
  ): Promise<{ contentType: string; name?: string; data: Buffer }> {
    const { attachment, data, thumbnail } = await this.read(id, caller);
    const chosen = view === 'original' ? { attachment, data } : view === 'thumbnail' ? thumbnail : undefined;
    if (!chosen) throw badArgument(`view ${view} not found`, 404);
    return { contentType: chosen.attachment.contentType, name: chosen.attachment.name, data: chosen.data };
  }

  private async read(id: string, caller: BotPrincipal | undefined) {
    const parsed = parsePublicAttachmentId(id);
    if (!parsed) {
      // Authentication first: an anonymous caller learns nothing about which ids are well-formed.
      this.conversations.requireCaller(caller);
      throw attachmentNotFound(id);
    }
    await this.conversations.access(parsed.conversationId, caller);
    const found = await this.store.getAttachment(parsed.conversationId, parsed.attachmentId);
    if (!found) throw attachmentNotFound(id);
    const { thumbnailAttachmentId } = found.attachment as typeof found.attachment & ThumbnailReference;
    const thumbnail =
      thumbnailAttachmentId !== undefined
        ? await this.store.getAttachment(parsed.conversationId, thumbnailAttachmentId)
        : undefined;
    return { ...found, thumbnail };
  }
}
