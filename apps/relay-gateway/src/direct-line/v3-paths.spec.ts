import { attachmentPath, streamConversationOf, streamPath, streamRouteOf, v3PrefixOf } from './v3-paths';

describe('v3 paths', () => {
  it('keeps a request on the prefix it came in on', () => {
    expect(v3PrefixOf('/v3/relay/conversations')).toBe('v3/relay');
    expect(v3PrefixOf('/v3/directline/conversations/abc')).toBe('v3/directline');
    expect(v3PrefixOf('/api/conversations')).toBe('v3/directline');
  });

  it('reads back the conversation of every stream path it builds', () => {
    for (const prefix of ['v3/directline', 'v3/relay'] as const) {
      const path = streamPath(prefix, 'a b|c');
      expect(path).toBe(`${prefix}/conversations/a%20b%7Cc/stream`);
      expect(streamConversationOf(`/${path}`)).toBe('a b|c');
    }
  });

  it('finds no conversation in other paths', () => {
    expect(streamConversationOf('/v3/directline/conversations/abc/activities')).toBeUndefined();
    expect(streamConversationOf('/v3/other/conversations/abc/stream')).toBeUndefined();
    expect(streamConversationOf('/v3/directline/conversations//stream')).toBeUndefined();
  });

  it('serves uploaded files under v3/directline', () =>
    expect(attachmentPath('c 1', 'att', 'photo 1.png')).toBe(
      'v3/directline/attachments/c%201/att/photo%201.png',
    ));

  it('labels a stream path with its route pattern, on the prefix it came in on', () => {
    expect(streamRouteOf('/v3/directline/conversations/abc/stream')).toBe(
      '/v3/directline/conversations/:conversationId/stream',
    );
    expect(streamRouteOf('/v3/relay/conversations/abc/stream')).toBe(
      '/v3/relay/conversations/:conversationId/stream',
    );
    expect(streamRouteOf('/v3/directline/conversations/abc')).toBeUndefined();
  });
});
