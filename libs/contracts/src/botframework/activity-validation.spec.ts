import { activityViolationError, validateActivity } from './activity-validation';
import { CardContentTypes } from './cards';

const hero = (content: unknown) => ({
  type: 'message',
  attachments: [{ contentType: CardContentTypes.hero, content }],
});
const button = (action: unknown) => hero({ title: 'T', buttons: [{ type: 'imBack', value: 'ok' }, action] });
const paths = (activity: unknown) => validateActivity(activity).map((violation) => violation.path);

describe('validateActivity', () => {
  it('accepts a reply with a hero card carousel, a thumbnail card and unknown fields and content types', () => {
    expect(
      validateActivity({
        type: 'message',
        attachmentLayout: 'carousel',
        custom: { anything: true },
        attachments: [
          {
            contentType: CardContentTypes.hero,
            content: {
              title: 'Pump 7',
              extra: 1,
              images: [{ url: 'https://x/y.png', tap: { type: 'openUrl', value: 'https://x' } }],
              buttons: [
                { type: 'openUrl', value: 'https://example.com' },
                { type: 'call', value: 'tel:+441234' },
                { type: 'postBack', value: 'p' },
                { type: 'messageBack', value: { a: 1 } },
                { type: 'showImage', value: 'data:image/png;base64,AA==' },
              ],
            },
          },
          {
            contentType: CardContentTypes.thumbnail,
            content: { buttons: [{ type: 'signin', value: 'https://login' }] },
          },
          { contentType: 'application/vnd.other.card', content: 'anything' },
          { contentType: 'image/png', contentUrl: 'https://x/y.png' },
        ],
      }),
    ).toEqual([]);
  });

  it('requires type', () => expect(paths({ text: 'x' })).toEqual(['type']));

  it('refuses a non-object activity', () => expect(paths([1])).toEqual(['']));

  it('refuses more than 256 KB with MessageSizeTooBig', () => {
    expect(validateActivity({ type: 'message', text: 'x'.repeat(262_144) })).toEqual([
      { path: '', code: 'MessageSizeTooBig', message: expect.stringContaining('262144') },
    ]);
  });

  it('allows attachmentLayout list or carousel only', () => {
    expect(paths({ type: 'message', attachmentLayout: 'list' })).toEqual([]);
    expect(paths({ type: 'message', attachmentLayout: 'grid' })).toEqual(['attachmentLayout']);
  });

  it('allows entities only as an array of objects', () => {
    expect(paths({ type: 'message', entities: [{ type: 'mention' }] })).toEqual([]);
    expect(paths({ type: 'message', entities: '' })).toEqual(['entities']);
    expect(paths({ type: 'message', entities: { type: 'mention' } })).toEqual(['entities']);
    expect(paths({ type: 'message', entities: [{ type: 'streaminfo' }, 'x', null] })).toEqual([
      'entities[1]',
      'entities[2]',
    ]);
  });

  it('needs an object as content of a known card type', () => {
    expect(paths(hero('text'))).toEqual(['attachments[0].content']);
    expect(paths(hero([]))).toEqual(['attachments[0].content']);
  });

  it('needs a contentType on every attachment', () =>
    expect(paths({ type: 'message', attachments: [{ content: {} }] })).toEqual([
      'attachments[0].contentType',
    ]));

  it('needs a CardAction type from the table', () => {
    expect(paths(button({ value: 'x' }))).toEqual(['attachments[0].content.buttons[1].type']);
    expect(paths(button({ type: 'teleport', value: 'x' }))).toEqual([
      'attachments[0].content.buttons[1].type',
    ]);
  });

  it.each(['openUrl', 'downloadFile', 'playAudio', 'playVideo', 'showImage', 'signin'])(
    'needs an absolute http(s) URL as value of %s',
    (type) => {
      expect(paths(button({ type, value: 'https://example.com/a' }))).toEqual([]);
      expect(paths(button({ type, value: 'example.com' }))).toEqual([
        'attachments[0].content.buttons[1].value',
      ]);
      expect(paths(button({ type, value: 'javascript:alert(1)' }))).toEqual([
        'attachments[0].content.buttons[1].value',
      ]);
    },
  );

  it('needs a tel: URI for call', () =>
    expect(paths(button({ type: 'call', value: '+441234' }))).toEqual([
      'attachments[0].content.buttons[1].value',
    ]));

  it.each(['imBack', 'postBack'])('needs a string value for %s', (type) =>
    expect(paths(button({ type, value: { a: 1 } }))).toEqual(['attachments[0].content.buttons[1].value']),
  );

  it('checks tap actions and image taps', () => {
    expect(paths(hero({ tap: { type: 'openUrl', value: 1 } }))).toEqual(['attachments[0].content.tap.value']);
    expect(paths(hero({ images: [{ url: 'https://x', tap: { type: 'nope' } }] }))).toEqual([
      'attachments[0].content.images[0].tap.type',
    ]);
    expect(paths(hero({ images: [{}] }))).toEqual(['attachments[0].content.images[0].url']);
  });

  it('checks receipt, sign-in, OAuth and media cards', () => {
    const card = (contentType: string, content: unknown) => ({
      type: 'message',
      attachments: [{ contentType, content }],
    });
    expect(
      paths(card(CardContentTypes.receipt, { items: [{ tap: { type: 'call', value: 'x' } }], facts: {} })),
    ).toEqual(['attachments[0].content.facts', 'attachments[0].content.items[0].tap.value']);
    expect(
      paths(card(CardContentTypes.signin, { buttons: [{ type: 'signin', value: 'data:text/html,x' }] })),
    ).toEqual(['attachments[0].content.buttons[0].value']);
    expect(paths(card(CardContentTypes.oauth, { buttons: 'x' }))).toEqual(['attachments[0].content.buttons']);
    for (const type of [CardContentTypes.animation, CardContentTypes.audio, CardContentTypes.video]) {
      expect(paths(card(type, { media: [{ url: 'https://x/a.mp4' }, { profile: 'x' }] }))).toEqual([
        'attachments[0].content.media[1].url',
      ]);
    }
  });

  it('needs type AdaptiveCard and a version on adaptive cards, and leaves their actions alone', () => {
    const adaptive = (content: unknown) => ({
      type: 'message',
      attachments: [{ contentType: CardContentTypes.adaptive, content }],
    });
    expect(
      paths(adaptive({ type: 'AdaptiveCard', version: '1.5', actions: [{ type: 'Action.Submit' }] })),
    ).toEqual([]);
    expect(paths(adaptive({ version: '1.5' }))).toEqual(['attachments[0].content.type']);
    expect(paths(adaptive({ type: 'AdaptiveCard' }))).toEqual(['attachments[0].content.version']);
  });

  it('checks suggested actions as CardActions', () =>
    expect(paths({ type: 'message', suggestedActions: { actions: [{ type: 'imBack', value: 3 }] } })).toEqual(
      ['suggestedActions.actions[0].value'],
    ));
});

describe('activityViolationError', () => {
  const wire = (activity: unknown, prefix?: string) => {
    const error = activityViolationError(validateActivity(activity), prefix);
    return error && { status: error.status, code: error.code, message: error.message };
  };

  it('is undefined for a valid activity', () => expect(wire({ type: 'message' })).toBeUndefined());

  it('is 400 BadArgument naming the first field, after the prefix', () =>
    expect(wire(button({ type: 'openUrl', value: 'nope' }), 'activities[2].')).toEqual({
      status: 400,
      code: 'BadArgument',
      message: expect.stringMatching(/^activities\[2\]\.attachments\[0\]\.content\.buttons\[1\]\.value: /),
    }));

  it('puts 413 MessageSizeTooBig before any other rule', () =>
    expect(wire({ text: 'x'.repeat(300_000) })).toEqual({
      status: 413,
      code: 'MessageSizeTooBig',
      message: 'The request content length exceeded limit of 262144 bytes.',
    }));
});
