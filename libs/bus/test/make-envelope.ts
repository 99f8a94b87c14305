import { type ActivityEnvelope } from '@fieldops/contracts';

/** A minimal valid envelope for one conversation; `seq` also names the message text. */
export function makeEnvelope(conversationId: string, seq: number): ActivityEnvelope {
  return {
    conversationId,
    seq,
    correlationId: `corr-${conversationId}-${seq}`,
    activity: {
      type: 'message',
      id: `${conversationId}|${String(seq).padStart(7, '0')}`,
      text: `message ${seq}`,
      from: { id: 'bot', role: 'bot' },
      conversation: { id: conversationId },
    },
  };
}
