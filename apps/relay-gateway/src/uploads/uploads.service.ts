import { Inject, Injectable } from '@nestjs/common';
import { type Request } from 'express';
import {
  type Activity,
  type Attachment,
  badArgument,
  isBotError,
  messageSizeTooBig,
  missingProperty,
} from '@fieldops/contracts';
import {
  CONVERSATION_STORE,
  type ConversationStore,
  type StoredAttachment,
  UploadCapacityError,
} from '@fieldops/conversation-store';
import { ActivitiesService } from '../activities/activities.service';
import { validateClientActivity } from '../activities/activity-validation';
import { RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { conversationNotFound } from '../conversations/conversations.service';
import { type Credential } from '../direct-line/credentials';
import { attachmentUrlFor, relayBaseUrl } from '../direct-line/public-url';
import { TokenIssuer } from '../direct-line/token-issuer';
import { parseUpload } from './upload-parser';
import { UploadQuota } from './upload-quota.service';

@Injectable()
export class UploadsService {
  constructor(
    @Inject(CONVERSATION_STORE) private readonly store: ConversationStore,
    private readonly activities: ActivitiesService,
    private readonly issuer: TokenIssuer,
    private readonly environment: RelayGatewayEnvironment,
    private readonly quota: UploadQuota,
  ) {}

  /**
   * Checks the upload whole — size, file count, the activity, the upload quotas — then stores each file, attaches
   * it (with a signed download URL) to the activity and sends it like any activity. Nothing is stored for an upload
   * that fails a check, and the files are removed again when the send is refused before the activity reaches the
   * log (a bot failure, 502/504, keeps them: the activity is in the conversation then).
   * `activityOfPart` reads the activity part in another shape (Direct Line 1.1 sends a Message there).
   */
  async upload(
    credential: Credential,
    conversationId: string,
    userId: unknown,
    request: Request,
    activityOfPart: (part: Activity) => Activity = (part) => part,
  ): Promise<{ id: string }> {
    try {
      relayBaseUrl(request, this.environment); // a host not allowed is refused before anything is stored
    } catch (error) {
      request.resume();
      throw error;
    }
    if (typeof userId !== 'string' || userId === '') {
      request.resume();
      throw missingProperty('The userId query parameter is required');
    }
    const record = await this.store.get(conversationId);
    if (!record || record.botId !== credential.bot.id) {
      request.resume();
      throw conversationNotFound();
    }
    try {
      await this.quota.assertOpen(credential, conversationId);
    } catch (error) {
      request.resume();
      throw error;
    }
    const parsed = await parseUpload(
      request,
      this.environment.RELAY_MAX_UPLOAD_BYTES,
      this.environment.RELAY_MAX_UPLOAD_FILES,
    );
    const base: Activity = parsed.activity ? activityOfPart(parsed.activity) : { type: 'message' };
    const activity = validateClientActivity(
      { ...base, type: base.type ?? 'message', from: { ...(base.from ?? {}), id: userId } },
      this.environment.RELAY_MAX_ACTIVITY_BYTES,
    );
    await this.quota.take(credential, conversationId, {
      bytes: parsed.files.reduce((sum, file) => sum + file.data.length, 0),
      files: parsed.files.length,
    });
    const storedFiles: StoredAttachment[] = [];
    try {
      return await this.attachAndSend(
        credential,
        conversationId,
        request,
        activity,
        parsed.files,
        storedFiles,
      );
    } catch (error) {
      const logged = isBotError(error);
      if (!logged)
        await Promise.all(
          storedFiles.map((stored) => this.store.deleteAttachment(conversationId, stored.attachmentId)),
        ).catch(() => undefined); // they expire with the conversation anyway
      if (error instanceof UploadCapacityError)
        throw messageSizeTooBig(`The upload exceeds this relay's upload capacity of ${error.capacity} bytes`);
      throw error;
    }
  }

  private async attachAndSend(
    credential: Credential,
    conversationId: string,
    request: Request,
    activity: Activity,
    files: Array<{ contentType: string; name: string; data: Buffer }>,
    storedFiles: StoredAttachment[],
  ): Promise<{ id: string }> {
    const attachments: Attachment[] = [];
    for (const file of files) {
      const stored = await this.store.putAttachment(
        conversationId,
        { contentType: file.contentType, name: file.name },
        file.data,
      );
      storedFiles.push(stored);
      const token = this.issuer.issue(
        {
          bot: credential.bot.id,
          site: credential.bot.id,
          conv: conversationId,
          scope: 'attachment',
          att: stored.attachmentId,
        },
        this.store.retentionSeconds,
      ).token;
      attachments.push({
        contentType: file.contentType,
        name: file.name,
        contentUrl: attachmentUrlFor(request, this.environment, {
          conversationId,
          attachmentId: stored.attachmentId,
          name: file.name,
          token,
        }),
      });
    }
    // The client's own attachment descriptions (DirectLineJS sends name/contentType without contentUrl) give way to
    // the uploaded files; URL attachments it sent are kept.
    const kept = (activity.attachments ?? []).filter(
      (attachment) => typeof attachment.contentUrl === 'string',
    );
    const result = await this.activities.send(credential, conversationId, {
      ...activity,
      attachments: [...kept, ...attachments],
    });
    return { id: result.id };
  }

  async download(
    conversationId: string,
    attachmentId: string,
    token: unknown,
  ): Promise<{ contentType: string; name?: string; data: Buffer }> {
    const { claims } = this.issuer.verify(typeof token === 'string' ? token : '');
    if (claims.scope !== 'attachment' || claims.conv !== conversationId || claims.att !== attachmentId) {
      throw badArgument('Invalid token for this attachment', 403);
    }
    const found = await this.store.getAttachment(conversationId, attachmentId);
    if (!found) throw badArgument('File not found', 404);
    return { contentType: found.attachment.contentType, name: found.attachment.name, data: found.data };
  }
}
