/** Rich card contracts (Bot Framework schema). Media types are the `application/vnd.microsoft.card.*` family. */

export const CardContentTypes = {
  adaptive: 'application/vnd.microsoft.card.adaptive',
  animation: 'application/vnd.microsoft.card.animation',
  audio: 'application/vnd.microsoft.card.audio',
  hero: 'application/vnd.microsoft.card.hero',
  thumbnail: 'application/vnd.microsoft.card.thumbnail',
  receipt: 'application/vnd.microsoft.card.receipt',
  signin: 'application/vnd.microsoft.card.signin',
  oauth: 'application/vnd.microsoft.card.oauth',
  video: 'application/vnd.microsoft.card.video',
} as const;

export type CardContentType = (typeof CardContentTypes)[keyof typeof CardContentTypes];

export const CardActionTypes = [
  'call',
  'downloadFile',
  'imBack',
  'messageBack',
  'openUrl',
  'playAudio',
  'playVideo',
  'postBack',
  'showImage',
  'signin',
] as const;

export type CardActionType = (typeof CardActionTypes)[number];

export interface CardAction {
  type: CardActionType | string;
  title?: string;
  image?: string;
  value?: unknown;
  text?: string;
  displayText?: string;
  channelData?: unknown;
}

export interface CardImage {
  url: string;
  alt?: string;
  tap?: CardAction;
}

export interface HeroCard {
  title?: string;
  subtitle?: string;
  text?: string;
  images?: CardImage[];
  buttons?: CardAction[];
  tap?: CardAction;
}

export type ThumbnailCard = HeroCard;
