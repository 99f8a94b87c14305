import { Inject, Injectable } from '@nestjs/common';
import { CONVERSATION_STORE, type ConversationStore } from '@fieldops/conversation-store';
import { ErrorEnvelopeException } from '@fieldops/platform';
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

function notFound(id: string): ErrorEnvelopeException {
  return new ErrorEnvelopeException(404, 'BadArgument', `attachment[${id}] not found`);
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
    if (typeof data.type !== 'string' || data.type === '')
      throw new ErrorEnvelopeException(400, 'MissingProperty', 'type: required');
    if (typeof data.originalBase64 !== 'string' || !BASE64.test(data.originalBase64))
      throw new ErrorEnvelopeException(400, 'MissingProperty', 'originalBase64: required (base64)');
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
    if (view !== 'original') throw new ErrorEnvelopeException(404, 'BadArgument', `view ${view} not found`);
    return { contentType: attachment.contentType, data };
  }

  private async read(id: string, caller: BotPrincipal | undefined) {
    const parsed = parsePublicAttachmentId(id);
    if (!parsed) throw notFound(id);
    await this.conversations.access(parsed.conversationId, caller);
    const found = await this.store.getAttachment(parsed.conversationId, parsed.attachmentId);
    if (!found) throw notFound(id);
    return found;
  }
}
