import { BotFrameworkError } from '@fieldops/contracts';
import { v1ErrorCode } from './v1-error';
import {
  activityFromV1Message,
  imageContentType,
  v1MessageFromActivity,
  v1MessageSetFromActivitySet,
} from './v1-message';

const BASE = 'https://relay.example.com';

describe('Direct Line 1.1 message mapping', () => {
  it('maps a 1.1 Message to a message activity', () => {
    expect(
      activityFromV1Message({
        id: 'ignored',
        created: 'ignored',
        from: 'u1',
        text: 'hi',
        channelData: { a: 1 },
        images: ['/img/a.JPG?x=1', 'https://x/y'],
        attachments: [{ url: 'https://x/doc' }],
      }),
    ).toEqual({
      type: 'message',
      from: { id: 'u1' },
      text: 'hi',
      channelData: { a: 1 },
      attachments: [
        { contentType: 'image/jpeg', contentUrl: '/img/a.JPG?x=1' },
        { contentType: 'image/*', contentUrl: 'https://x/y' },
        { contentType: 'application/octet-stream', contentUrl: 'https://x/doc' },
      ],
    });
    expect(activityFromV1Message({ text: 'x' }, 'dl_user').from).toEqual({ id: 'dl_user' });
    expect(activityFromV1Message({ text: 'x' }).from).toBeUndefined();
  });

  it.each([
    ['a non-object', 'text'],
    ['a non-string from', { from: { id: 'u' } }],
    ['a non-object channelData', { from: 'u', channelData: [1] }],
    ['non-URL images', { from: 'u', images: [3] }],
    ['an attachment without url', { from: 'u', attachments: [{ contentType: 'x/y' }] }],
  ])('rejects %s as BadSyntax', (_, body) => {
    expect(() => activityFromV1Message(body)).toThrow(BotFrameworkError);
  });

  it('maps a logged activity to a 1.1 Message, resolving relative URLs and dropping inline cards', () => {
    expect(
      v1MessageFromActivity(
        {
          type: 'message',
          id: 'c|0000003',
          timestamp: '2026-01-01T00:00:00.000Z',
          conversation: { id: 'c' },
          from: { id: 'bot' },
          text: 't',
          channelData: 'not an object',
          attachments: [
            { contentType: 'image/png', contentUrl: '/files/p.png' },
            { contentType: 'application/pdf', contentUrl: 'https://x/d.pdf' },
            { contentType: 'application/vnd.microsoft.card.hero', content: {} },
          ],
        },
        BASE,
      ),
    ).toEqual({
      id: 'c|0000003',
      conversationId: 'c',
      created: '2026-01-01T00:00:00.000Z',
      from: 'bot',
      text: 't',
      eTag: 'c|0000003',
      images: ['https://relay.example.com/files/p.png'],
      attachments: [{ url: 'https://x/d.pdf', contentType: 'application/pdf' }],
    });
  });

  it('always returns a watermark and keeps message activities only', () => {
    expect(v1MessageSetFromActivitySet({ activities: [] }, undefined, BASE)).toEqual({
      messages: [],
      watermark: '-1',
    });
    expect(v1MessageSetFromActivitySet({ activities: [] }, '4', BASE).watermark).toBe('4');
    const set = v1MessageSetFromActivitySet(
      {
        activities: [
          { type: 'event', name: 'x' },
          { type: 'message', text: 'm' },
        ],
        watermark: '7',
      },
      '4',
      BASE,
    );
    expect(set.watermark).toBe('7');
    expect(set.messages.map((message) => message.text)).toEqual(['m']);
  });

  it('infers image media types from the extension', () => {
    expect(imageContentType('https://x/a.svg#f')).toBe('image/svg+xml');
    expect(imageContentType('https://x/a')).toBe('image/*');
  });
});

describe('Direct Line 1.1 error codes', () => {
  it.each([
    ['BadArgument', 400, 'MalformedData'],
    ['BadSyntax', 400, 'MalformedData'],
    ['MissingProperty', 400, 'MissingProperty'],
    ['BadArgument', 401, 'NotAllowed'],
    ['BadArgument', 403, 'NotAllowed'],
    ['TokenExpired', 403, 'NotAllowed'],
    ['BadArgument', 404, 'NotFound'],
    ['NotFound', 404, 'NotFound'],
    ['MessageSizeTooBig', 413, 'InvalidRange'],
    ['TooManyRequests', 429, 'NotAllowed'],
    ['MethodNotAllowed', 405, 'NotSupported'],
    ['BotError', 502, 'ServiceError'],
    ['BotError', 504, 'ServiceError'],
    ['ServiceError', 500, 'ServiceError'],
    ['SomethingElse', 503, 'ServiceError'],
  ])('%s with %i → %s', (code, status, expected) => {
    expect(v1ErrorCode(code, status)).toBe(expected);
  });
});
