import { type ActivityEnvelope } from '@fieldops/contracts';

/** One stream frame: one activity and its seq as the watermark (see `StreamConnection`). */
export interface FrameEntry {
  seq: number;
  activity: ActivityEnvelope['activity'];
}

/** The options of every `send`: a Buffer is sent as a text frame, as DirectLineJS reads it. */
export const TEXT_FRAME = { binary: false } as const;

/**
 * Frames of live envelopes, by envelope: the bus hands every stream of the conversation on this instance the same
 * envelope object, so its frame is serialized and encoded once however many sockets send it.
 */
const framesByEnvelope = new WeakMap<ActivityEnvelope, Buffer>();

/** The UTF-8 frame of one entry. */
export function encodeFrame(entry: FrameEntry): Buffer {
  return Buffer.from(JSON.stringify({ activities: [entry.activity], watermark: String(entry.seq) }));
}

/** The frame of a live envelope, encoded on the first call and shared by the later ones. */
export function frameOfEnvelope(envelope: ActivityEnvelope): Buffer {
  let frame = framesByEnvelope.get(envelope);
  if (frame === undefined) {
    frame = encodeFrame(envelope);
    framesByEnvelope.set(envelope, frame);
  }
  return frame;
}
