import { type Activity } from '../botframework/activity';

/**
 * What travels on the activity bus: a wake-up signal for every relay instance holding a socket
 * for the conversation. The conversation store is the source of truth; `seq` is the activity's
 * position in the conversation's log (the Direct Line watermark).
 */
export interface ActivityEnvelope {
  conversationId: string;
  seq: number;
  activity: Activity;
  /** Carried across hops (relay → connector → bot → connector → relay) so one chat turn can be traced in the logs. */
  correlationId: string;
}
