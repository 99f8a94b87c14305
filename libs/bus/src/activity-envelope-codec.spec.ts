import { decodeActivityEnvelope, encodeActivityEnvelope } from './activity-envelope-codec';

describe('activity envelope codec', () => {
  const envelope = {
    conversationId: 'conv-1',
    seq: 3,
    correlationId: 'corr-1',
    activity: { type: 'message', text: 'hi', channelData: { custom: [1, 2] }, unknownField: true },
  };

  it('round-trips an envelope including unknown activity fields', () => {
    expect(decodeActivityEnvelope(encodeActivityEnvelope(envelope))).toEqual(envelope);
  });

  it.each([
    ['not JSON', 'nope', SyntaxError],
    ['a JSON array', '[]', /must be an object/],
    [
      'a missing conversationId',
      JSON.stringify({ ...envelope, conversationId: undefined }),
      /conversationId/,
    ],
    ['a string seq', JSON.stringify({ ...envelope, seq: '3' }), /seq/],
    ['a missing correlationId', JSON.stringify({ ...envelope, correlationId: 7 }), /correlationId/],
    ['an activity without type', JSON.stringify({ ...envelope, activity: { text: 'hi' } }), /activity/],
  ])('rejects %s', (_, message, expected) => {
    expect(() => decodeActivityEnvelope(message)).toThrow(expected);
  });

  it('refuses to encode an invalid envelope', () => {
    expect(() => encodeActivityEnvelope({ ...envelope, seq: Number.NaN })).toThrow(/seq/);
  });
});
