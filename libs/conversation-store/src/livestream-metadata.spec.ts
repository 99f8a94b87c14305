import { withLivestreamChannelData } from './livestream-metadata';

describe('withLivestreamChannelData', () => {
  const streamed = (type: string, entity: Record<string, unknown>, channelData?: unknown) => ({
    type,
    text: 'Once upon',
    entities: [{ type: 'streaminfo', ...entity }],
    ...(channelData !== undefined && { channelData }),
  });

  it('copies an Agents SDK streaminfo entity into channelData (typing and the final message), entity kept', () => {
    const chunk = streamed('typing', { streamType: 'streaming', streamId: 'c|0000001', streamSequence: 2 });
    expect(withLivestreamChannelData(chunk)).toEqual({
      ...chunk,
      channelData: { streamType: 'streaming', streamId: 'c|0000001', streamSequence: 2 },
    });
    const informative = streamed('typing', { streamType: 'informative', streamSequence: 1 });
    expect(withLivestreamChannelData(informative).channelData).toEqual({
      streamType: 'informative',
      streamSequence: 1,
    });
    const final = streamed(
      'message',
      { streamType: 'final', streamId: 'c|0000001' },
      { feedbackLoopEnabled: false },
    );
    expect(withLivestreamChannelData(final).channelData).toEqual({
      feedbackLoopEnabled: false,
      streamType: 'final',
      streamId: 'c|0000001',
    });
  });

  it('keeps what the bot wrote in channelData itself (botbuilder streaming) and ignores wrong types', () => {
    const own = streamed(
      'typing',
      { streamType: 'streaming', streamId: 'entity-id', streamSequence: 'three' },
      { streamType: 'informative', streamId: 'own-id' },
    );
    expect(withLivestreamChannelData(own).channelData).toEqual({
      streamType: 'informative',
      streamId: 'own-id',
    });
  });

  it('leaves other activities, activities without the entity and non-object channelData as they are', () => {
    const event = streamed('event', { streamType: 'streaming', streamId: 'x' });
    expect(withLivestreamChannelData(event)).toBe(event);
    const plain = { type: 'message', text: 'hi', entities: [{ type: 'mention' }] };
    expect(withLivestreamChannelData(plain)).toBe(plain);
    const odd = streamed('typing', { streamType: 'streaming' }, 'a string');
    expect(withLivestreamChannelData(odd)).toBe(odd);
  });
});
