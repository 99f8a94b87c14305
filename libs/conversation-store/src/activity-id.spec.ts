import { activityIdFor, parseActivityId } from './activity-id';

describe('activity ids', () => {
  it('are the conversation id, a bar and the seq padded to 7 digits', () => {
    expect(activityIdFor('abc', 0)).toBe('abc|0000000');
    expect(activityIdFor('abc', 42)).toBe('abc|0000042');
    expect(activityIdFor('abc', 12_345_678)).toBe('abc|12345678');
  });

  it('parse back to the conversation and seq they were made from', () => {
    for (const [conversationId, seq] of [
      ['abc', 0],
      ['Kx9_-Q', 9_999_999],
      ['with|bar', 3],
      ['', 1],
      ['c', 123_456_789],
    ] as const) {
      expect(parseActivityId(activityIdFor(conversationId, seq))).toEqual({ conversationId, seq });
    }
  });

  it('refuse what the store never mints', () => {
    for (const id of [
      'abc',
      'abc|',
      'abc|123456',
      'abc|00000001',
      'abc|000000a',
      'abc|0000001 ',
      'abc|update-0000001',
      `abc|${'9'.repeat(20)}`,
    ]) {
      expect(parseActivityId(id)).toBeUndefined();
    }
  });
});
