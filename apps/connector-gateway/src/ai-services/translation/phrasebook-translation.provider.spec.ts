import { PhrasebookTranslationProvider } from './phrasebook-translation.provider';

const provider = new PhrasebookTranslationProvider([
  { en: 'Inspection complete', 'zh-Hans': '检查完成' },
  { en: 'ok', 'zh-Hans': '正常', 'zh-hant': '正常(繁)' },
]);

const translate = (texts: string[], to: string[], from?: string) =>
  provider.translate({ texts, to, ...(from !== undefined && { from }), requestId: 'r1' });

describe('PhrasebookTranslationProvider', () => {
  it('translates whole elements, trimmed and case-insensitive on the source, into every target', async () => {
    const { results, system } = await translate(
      ['  INSPECTION complete\n', 'OK'],
      ['zh-Hans', 'zh-Hant'],
      'en',
    );
    expect(system).toBe('Phrasebook');
    expect(results).toEqual([
      {
        translations: [
          { text: '检查完成', to: 'zh-Hans' },
          { text: '  INSPECTION complete\n', to: 'zh-Hant' },
        ],
      },
      {
        translations: [
          { text: '正常', to: 'zh-Hans' },
          { text: '正常(繁)', to: 'zh-Hant' },
        ],
      },
    ]);
  });

  it('prefers the phrase spelt exactly as the text over one differing only in case, in either order', async () => {
    for (const phrases of [
      [
        { en: 'open', 'zh-Hans': '待处理' },
        { en: 'Open', 'zh-Hans': '打开' },
      ],
      [
        { en: 'Open', 'zh-Hans': '打开' },
        { en: 'open', 'zh-Hans': '待处理' },
      ],
    ]) {
      const { results } = await new PhrasebookTranslationProvider(phrases).translate({
        texts: ['Open', 'open', ' OPEN '],
        to: ['zh-Hans'],
        from: 'en',
        requestId: 'r2',
      });
      expect(results.map((result) => result.translations[0]?.text)).toEqual([
        '打开',
        '待处理',
        phrases[0]['zh-Hans'],
      ]);
    }
  });

  it('returns unknown text unchanged, and text in another source language than `from`', async () => {
    const { results } = await translate(['Not in the book', '检查完成'], ['zh-Hans'], 'en');
    expect(results.map((result) => result.translations[0]?.text)).toEqual(['Not in the book', '检查完成']);
  });

  it('without `from`: the language the text is a phrase in (score 1), else tinyld, else en with score 0', async () => {
    const { results } = await translate(
      ['检查完成', 'Guten Morgen, wie geht es Ihnen heute?', '12345'],
      ['en'],
    );
    expect(results[0]).toEqual({
      detectedLanguage: { language: 'zh-Hans', score: 1 },
      translations: [{ text: 'Inspection complete', to: 'en' }],
    });
    expect(results[1]?.detectedLanguage?.language).toBe('de');
    expect(results[2]?.detectedLanguage).toEqual({ language: 'en', score: 0 });
  });
});
