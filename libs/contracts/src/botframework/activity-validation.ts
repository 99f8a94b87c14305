import { CardActionTypes, CardContentTypes } from './cards';
import { badArgument, type BotFrameworkError, type BotFrameworkErrorCode, messageSizeTooBig } from './errors';

/** The Bot Connector's request size limit (bytes of the JSON activity). */
export const MAX_ACTIVITY_BYTES = 262_144;

/** One rule an activity breaks, with the path of the offending field (`attachments[0].content.buttons[1].value`). */
export interface ActivityViolation {
  path: string;
  message: string;
  code: Extract<BotFrameworkErrorCode, 'BadArgument' | 'MessageSizeTooBig'>;
}

type Json = Record<string, unknown>;

const URL_VALUED = new Set(['openUrl', 'downloadFile', 'playAudio', 'playVideo', 'showImage', 'signin']);
const STRING_VALUED = new Set(['imBack', 'postBack']);
const KNOWN_ACTIONS = new Set<string>(CardActionTypes);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

class Collector {
  readonly violations: ActivityViolation[] = [];
  add(path: string, message: string, code: ActivityViolation['code'] = 'BadArgument'): void {
    this.violations.push({ path, message, code });
  }
}

function checkCardAction(action: unknown, path: string, out: Collector): void {
  if (!isObject(action)) return out.add(path, 'a CardAction must be an object');
  const { type, value } = action;
  if (typeof type !== 'string' || type === '') return out.add(`${path}.type`, 'a CardAction needs a type');
  if (!KNOWN_ACTIONS.has(type)) {
    return out.add(
      `${path}.type`,
      `unknown CardAction type '${type}' (expected one of ${CardActionTypes.join(', ')})`,
    );
  }
  if (URL_VALUED.has(type)) {
    const allowed =
      isHttpUrl(value) ||
      (type === 'showImage' && typeof value === 'string' && value.startsWith('data:image/'));
    if (!allowed) out.add(`${path}.value`, `a '${type}' action needs an absolute http(s) URL as value`);
  } else if (type === 'call') {
    if (typeof value !== 'string' || !/^tel:\S+/.test(value))
      out.add(`${path}.value`, "a 'call' action needs a tel: URI as value");
  } else if (STRING_VALUED.has(type)) {
    if (typeof value !== 'string') out.add(`${path}.value`, `an '${type}' action needs a string value`);
  }
}

function checkActions(list: unknown, path: string, out: Collector): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return out.add(path, 'must be an array of CardAction');
  list.forEach((action, index) => checkCardAction(action, `${path}[${index}]`, out));
}

function checkOptionalAction(action: unknown, path: string, out: Collector): void {
  if (action !== undefined) checkCardAction(action, path, out);
}

function checkImages(images: unknown, path: string, out: Collector): void {
  if (images === undefined) return;
  if (!Array.isArray(images)) return out.add(path, 'must be an array of CardImage');
  images.forEach((image, index) => {
    const at = `${path}[${index}]`;
    if (!isObject(image)) return out.add(at, 'a CardImage must be an object');
    if (typeof image.url !== 'string' || image.url === '') out.add(`${at}.url`, 'a CardImage needs a url');
    checkOptionalAction(image.tap, `${at}.tap`, out);
  });
}

function checkMedia(media: unknown, path: string, out: Collector): void {
  if (media === undefined) return;
  if (!Array.isArray(media)) return out.add(path, 'must be an array of MediaUrl');
  media.forEach((item, index) => {
    if (!isObject(item) || typeof item.url !== 'string' || item.url === '')
      out.add(`${path}[${index}].url`, 'a MediaUrl needs a url');
  });
}

type CardCheck = (content: Json, path: string, out: Collector) => void;

const heroLike: CardCheck = (content, path, out) => {
  checkImages(content.images, `${path}.images`, out);
  checkActions(content.buttons, `${path}.buttons`, out);
  checkOptionalAction(content.tap, `${path}.tap`, out);
};

const buttonsOnly: CardCheck = (content, path, out) => checkActions(content.buttons, `${path}.buttons`, out);

const mediaCard: CardCheck = (content, path, out) => {
  checkMedia(content.media, `${path}.media`, out);
  checkActions(content.buttons, `${path}.buttons`, out);
};

const CARD_CHECKS: Record<string, CardCheck> = {
  [CardContentTypes.hero]: heroLike,
  [CardContentTypes.thumbnail]: heroLike,
  [CardContentTypes.signin]: buttonsOnly,
  [CardContentTypes.oauth]: buttonsOnly,
  [CardContentTypes.animation]: mediaCard,
  [CardContentTypes.audio]: mediaCard,
  [CardContentTypes.video]: mediaCard,
  [CardContentTypes.receipt]: (content, path, out) => {
    checkActions(content.buttons, `${path}.buttons`, out);
    checkOptionalAction(content.tap, `${path}.tap`, out);
    if (content.facts !== undefined && !Array.isArray(content.facts))
      out.add(`${path}.facts`, 'must be an array of Fact');
    if (content.items === undefined) return;
    if (!Array.isArray(content.items)) return out.add(`${path}.items`, 'must be an array of ReceiptItem');
    content.items.forEach((item, index) => {
      const at = `${path}.items[${index}]`;
      if (!isObject(item)) return out.add(at, 'a ReceiptItem must be an object');
      checkOptionalAction(item.tap, `${at}.tap`, out);
      if (item.image !== undefined) checkImages([item.image], `${at}.image`, out);
    });
  },
  [CardContentTypes.adaptive]: (content, path, out) => {
    if (content.type !== 'AdaptiveCard')
      out.add(`${path}.type`, 'an adaptive card needs type "AdaptiveCard"');
    if (typeof content.version !== 'string' || content.version === '')
      out.add(`${path}.version`, 'an adaptive card needs a version');
  },
};

/**
 * Checks an activity a bot sends against the Bot Connector's rules: `type` required, the 256 KB limit,
 * `attachmentLayout` list|carousel, `entities` an array of objects, known rich cards' shapes and their CardActions (type from the spec's
 * table, value of the right kind). Unknown content types and unknown fields pass untouched. Pure.
 */
export function validateActivity(
  activity: unknown,
  maxBytes: number = MAX_ACTIVITY_BYTES,
): ActivityViolation[] {
  const out = new Collector();
  if (!isObject(activity)) {
    out.add('', 'the activity must be a JSON object');
    return out.violations;
  }
  const size = new TextEncoder().encode(JSON.stringify(activity)).length;
  if (size > maxBytes)
    out.add('', `The request content length exceeded limit of ${maxBytes} bytes.`, 'MessageSizeTooBig');
  if (typeof activity.type !== 'string' || activity.type === '') out.add('type', 'type is required');
  if (
    activity.attachmentLayout !== undefined &&
    activity.attachmentLayout !== 'list' &&
    activity.attachmentLayout !== 'carousel'
  )
    out.add('attachmentLayout', "attachmentLayout must be 'list' or 'carousel'");
  if (activity.entities !== undefined) {
    if (!Array.isArray(activity.entities)) out.add('entities', 'entities must be an array of Entity');
    else
      activity.entities.forEach((entity, index) => {
        if (!isObject(entity)) out.add(`entities[${index}]`, 'an Entity must be an object');
      });
  }
  if (isObject(activity.suggestedActions))
    checkActions(activity.suggestedActions.actions, 'suggestedActions.actions', out);
  if (activity.attachments !== undefined) {
    if (!Array.isArray(activity.attachments)) {
      out.add('attachments', 'attachments must be an array');
    } else {
      activity.attachments.forEach((attachment, index) => {
        const at = `attachments[${index}]`;
        if (!isObject(attachment)) return out.add(at, 'an attachment must be an object');
        if (typeof attachment.contentType !== 'string' || attachment.contentType === '')
          return out.add(`${at}.contentType`, 'an attachment needs a contentType');
        const check = CARD_CHECKS[attachment.contentType];
        if (!check) return;
        if (!isObject(attachment.content))
          return out.add(
            `${at}.content`,
            `content of a ${attachment.contentType} attachment must be an object`,
          );
        check(attachment.content, `${at}.content`, out);
      });
    }
  }
  return out.violations;
}

/**
 * The Bot Connector error for an activity's violations: 413 `MessageSizeTooBig` before any 400 `BadArgument`
 * naming the field (`attachments[0].content.buttons[1].value: …`); undefined without violations. `prefix` goes
 * before the message (`activities[2].`).
 */
export function activityViolationError(
  violations: readonly ActivityViolation[],
  prefix = '',
): BotFrameworkError | undefined {
  const tooBig = violations.find((violation) => violation.code === 'MessageSizeTooBig');
  if (tooBig) return messageSizeTooBig(`${prefix}${tooBig.message}`);
  const [first] = violations;
  if (!first) return undefined;
  return badArgument(`${prefix}${first.path ? `${first.path}: ${first.message}` : first.message}`);
}
