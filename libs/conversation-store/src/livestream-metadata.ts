import { type Activity } from '@fieldops/contracts';

/**
 * A livestreamed answer as Web Chat renders it. The Microsoft 365 Agents SDK (`context.streamingResponse`) describes
 * each part of a streamed answer in an entity `{type: 'streaminfo', streamType, streamId, streamSequence}`; Web Chat
 * (4.17, 4.18) reads the same three fields from `channelData` only, so without them it shows every chunk as a
 * bubble of its own and the final message beside them. The channel copies them: a bot's `typing` or `message`
 * activity with a `streaminfo` entity gets the entity's fields in `channelData`, where the bot did not set them
 * itself (botbuilder bots stream by writing `channelData.streamType` and keep their values). The entity stays.
 * docs/protocols/direct-line.md, "Livestreamed answers".
 */
export function withLivestreamChannelData<T extends Activity>(activity: T): T {
  if (activity.type !== 'typing' && activity.type !== 'message') return activity;
  if (!Array.isArray(activity.entities)) return activity;
  const info = activity.entities.find(
    (entity) => typeof entity?.type === 'string' && entity.type.toLowerCase() === 'streaminfo',
  );
  if (!info) return activity;
  const channelData = activity.channelData;
  if (
    channelData !== undefined &&
    (typeof channelData !== 'object' || channelData === null || Array.isArray(channelData))
  )
    return activity;
  const own = (channelData ?? {}) as Record<string, unknown>;
  const copied: Record<string, unknown> = {};
  if (typeof info.streamType === 'string' && own.streamType === undefined)
    copied.streamType = info.streamType;
  if (typeof info.streamId === 'string' && own.streamId === undefined) copied.streamId = info.streamId;
  if (typeof info.streamSequence === 'number' && own.streamSequence === undefined)
    copied.streamSequence = info.streamSequence;
  if (Object.keys(copied).length === 0) return activity;
  return { ...activity, channelData: { ...own, ...copied } };
}
