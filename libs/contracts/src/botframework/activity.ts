/**
 * Bot Framework activity schema (the subset relay and connector read or stamp).
 * Unknown fields are legal on the wire and must be passed through untouched, hence the index signatures.
 */

export interface ChannelAccount {
  id: string;
  name?: string;
  role?: 'user' | 'bot' | string;
  aadObjectId?: string;
  [extra: string]: unknown;
}

export interface ConversationAccount {
  id: string;
  name?: string;
  isGroup?: boolean;
  conversationType?: string;
  tenantId?: string;
  [extra: string]: unknown;
}

export interface Attachment {
  contentType: string;
  contentUrl?: string;
  content?: unknown;
  name?: string;
  thumbnailUrl?: string;
  [extra: string]: unknown;
}

export type ActivityType =
  | 'message'
  | 'typing'
  | 'event'
  | 'invoke'
  | 'conversationUpdate'
  | 'endOfConversation'
  | 'messageReaction'
  | 'contactRelationUpdate'
  | 'installationUpdate'
  | 'deleteUserData'
  | 'trace'
  | 'handoff'
  | 'suggestion'
  | 'command'
  | 'commandResult'
  | 'messageUpdate'
  | 'messageDelete';

export interface Activity {
  type: ActivityType | string;
  id?: string;
  timestamp?: string;
  localTimestamp?: string;
  serviceUrl?: string;
  channelId?: string;
  from?: ChannelAccount;
  recipient?: ChannelAccount;
  conversation?: ConversationAccount;
  replyToId?: string;
  locale?: string;
  text?: string;
  textFormat?: 'plain' | 'markdown' | 'xml' | string;
  speak?: string;
  inputHint?: 'acceptingInput' | 'ignoringInput' | 'expectingInput' | string;
  attachments?: Attachment[];
  attachmentLayout?: 'list' | 'carousel' | string;
  suggestedActions?: { to?: string[]; actions: unknown[] };
  entities?: Array<{ type: string; [extra: string]: unknown }>;
  channelData?: unknown;
  value?: unknown;
  name?: string;
  membersAdded?: ChannelAccount[];
  membersRemoved?: ChannelAccount[];
  [extra: string]: unknown;
}

/** A page of activities as Direct Line 3.0 returns it (polling body and stream frame). */
export interface ActivitySet {
  activities: Activity[];
  watermark?: string;
}
