import { type Activity, type ActivitySet, type Attachment, badSyntax } from '@fieldops/contracts';

/** Direct Line 1.1 tokens live 30 minutes (1-1-authentication; the spec's Version 1.1 limit). */
export const V1_TOKEN_LIFETIME_SECONDS = 30 * 60;

/** A Direct Line 1.1 attachment: a URL and its media type. */
export interface V1Attachment {
  url: string;
  contentType: string;
}

/** A Direct Line 1.1 Message (direct-line-v1.json): `from` is a plain string, images are URLs. */
export interface V1Message {
  id?: string;
  conversationId?: string;
  created?: string;
  from?: string;
  text?: string;
  channelData?: Record<string, unknown>;
  images?: string[];
  attachments?: V1Attachment[];
  eTag?: string;
}

/** A Direct Line 1.1 MessageSet: the page of messages after a watermark, and the new watermark. */
export interface V1MessageSet {
  messages: V1Message[];
  watermark: string;
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The media type of an image URL from its extension; `image/*` when it has none we know. */
export function imageContentType(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && IMAGE_TYPES[extension]) ?? 'image/*';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A client's 1.1 Message → the 3.0 message activity the send path takes: `from` string → `from.id`, `images` and
 * `attachments[{url,contentType}]` → `attachments[{contentUrl,contentType}]`, `channelData` (an object) unchanged.
 * `from` may be left out when `defaultFrom` (the token's embedded user) is known. `created`, `id`, `eTag` and
 * `conversationId` are the service's to set and are ignored.
 */
export function activityFromV1Message(body: unknown, defaultFrom?: string): Activity {
  if (!isRecord(body)) throw badSyntax('The body must be a message (a JSON object)');
  const activity: Activity = { type: 'message' };
  const from = body.from ?? defaultFrom;
  if (from !== undefined) {
    if (typeof from !== 'string' || from === '') throw badSyntax('from must be a non-empty string');
    activity.from = { id: from };
  }
  if (body.text !== undefined && body.text !== null) {
    if (typeof body.text !== 'string') throw badSyntax('text must be a string');
    activity.text = body.text;
  }
  if (body.channelData !== undefined && body.channelData !== null) {
    if (!isRecord(body.channelData)) throw badSyntax('channelData must be a JSON object');
    activity.channelData = body.channelData;
  }
  const attachments: Attachment[] = [];
  if (body.images !== undefined && body.images !== null) {
    if (!Array.isArray(body.images) || !body.images.every((url) => typeof url === 'string' && url !== '')) {
      throw badSyntax('images must be an array of URLs');
    }
    for (const url of body.images as string[]) {
      attachments.push({ contentType: imageContentType(url), contentUrl: url });
    }
  }
  if (body.attachments !== undefined && body.attachments !== null) {
    if (!Array.isArray(body.attachments)) throw badSyntax('attachments must be an array');
    for (const attachment of body.attachments as unknown[]) {
      if (!isRecord(attachment) || typeof attachment.url !== 'string' || attachment.url === '') {
        throw badSyntax('every attachment needs a url');
      }
      const contentType =
        typeof attachment.contentType === 'string' && attachment.contentType !== ''
          ? attachment.contentType
          : 'application/octet-stream';
      attachments.push({ contentType, contentUrl: attachment.url });
    }
  }
  if (attachments.length > 0) activity.attachments = attachments;
  return activity;
}

function absolute(url: string, baseUrl: string): string {
  try {
    return new URL(url, `${baseUrl}/`).toString();
  } catch {
    return url;
  }
}

/**
 * A logged message activity → a 1.1 Message. Attachments with a `contentUrl` become `images` (image types) or
 * `attachments`, relative URLs resolved against this gateway; inline cards (no URL) have no 1.1 form and are dropped.
 * The 3.0 send path keeps what clients send, so fields of another type than the schema's are left out, never thrown on.
 */
export function v1MessageFromActivity(activity: Activity, baseUrl: string): V1Message {
  const message: V1Message = {
    id: activity.id,
    conversationId: activity.conversation?.id,
    created: activity.timestamp,
    from: isRecord(activity.from) && typeof activity.from.id === 'string' ? activity.from.id : undefined,
    text: typeof activity.text === 'string' ? activity.text : undefined,
    eTag: activity.id,
  };
  if (isRecord(activity.channelData)) message.channelData = activity.channelData;
  const images: string[] = [];
  const attachments: V1Attachment[] = [];
  for (const attachment of Array.isArray(activity.attachments) ? (activity.attachments as unknown[]) : []) {
    if (!isRecord(attachment) || typeof attachment.contentUrl !== 'string' || attachment.contentUrl === '')
      continue;
    const url = absolute(attachment.contentUrl, baseUrl);
    const contentType = typeof attachment.contentType === 'string' ? attachment.contentType : '';
    if (contentType.toLowerCase().startsWith('image/')) images.push(url);
    else attachments.push({ url, contentType: contentType || 'application/octet-stream' });
  }
  message.images = images;
  message.attachments = attachments;
  return message;
}

/**
 * A 3.0 polling page → a 1.1 MessageSet: message activities only. A watermark is always returned (1.1 clients echo
 * it): the page's, else the caller's, else `-1` (before the first entry, which reads the log from its start).
 */
export function v1MessageSetFromActivitySet(
  set: ActivitySet,
  requested: string | undefined,
  baseUrl: string,
): V1MessageSet {
  return {
    messages: set.activities
      .filter((activity) => activity.type === 'message')
      .map((activity) => v1MessageFromActivity(activity, baseUrl)),
    watermark: set.watermark ?? (requested !== undefined && requested !== '' ? requested : '-1'),
  };
}
