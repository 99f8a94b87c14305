import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_STORE, type ConversationStore } from '@fieldops/conversation-store';
import { badArgument, type BotFrameworkError, missingProperty } from '@fieldops/contracts';
import { type BotPrincipal } from '../bot-auth/bot-access-token-verifier';
import { BotConversationsService, type ConversationAccess } from './bot-conversations.service';

/** Bot Connector `AttachmentInfo`. */
export interface AttachmentInfo {
  name?: string;
  type: string;
  views: Array<{ viewId: string; size: number }>;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

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

function attachmentNotFound(id: string): BotFrameworkError {
  return badArgument(`attachment[${id}] not found`, 404);
}

/**
 * UploadAttachment (`AttachmentData`, base64 bytes) and the `/v3/attachments` reads. Only the `original` view is
 * kept (a given thumbnail is not stored); reads need the same access as the attachment's conversation.
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
    if (typeof data.originalBase64 !== 'string' || !BASE64.test(data.originalBase64))
      throw missingProperty('originalBase64: required (base64)');
    const stored = await this.store.putAttachment(
      access.record.conversationId,
      { contentType: data.type, ...(typeof data.name === 'string' && { name: data.name }) },
      Buffer.from(data.originalBase64, 'base64'),
    );
    return { id: publicAttachmentId(access.record.conversationId, stored.attachmentId) };
  }

  async info(id: string, caller: BotPrincipal | undefined): Promise<AttachmentInfo> {
    const { attachment } = await this.read(id, caller);
    return {
      ...(attachment.name !== undefined && { name: attachment.name }),
      type: attachment.contentType,
      views: [{ viewId: 'original', size: attachment.size }],
    };
  }

  async view(
    id: string,
    view: string,
    caller: BotPrincipal | undefined,
  ): Promise<{ contentType: string; data: Buffer }> {
    const { attachment, data } = await this.read(id, caller);
    if (view !== 'original') throw badArgument(`view ${view} not found`, 404);
    return { contentType: attachment.contentType, data };
  }

  private async read(id: string, caller: BotPrincipal | undefined) {
    const parsed = parsePublicAttachmentId(id);
    if (!parsed) throw attachmentNotFound(id);
    await this.conversations.access(parsed.conversationId, caller);
    const found = await this.store.getAttachment(parsed.conversationId, parsed.attachmentId);
    if (!found) throw attachmentNotFound(id);
    return found;
  }
}
