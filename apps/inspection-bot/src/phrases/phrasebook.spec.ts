import { join } from 'node:path';
import { Localizer, languageOfLocale } from './localizer';
import { fillPlaceholders, PHRASES } from './phrase-catalogue';
import { loadPhrasebook, PhrasebookTranslator } from './phrasebook-translator';

const PHRASEBOOK = join(__dirname, '..', '..', 'phrasebook.yaml');

describe('phrasebook and localizer', () => {
  const phrasebook = loadPhrasebook(PHRASEBOOK);

  it('covers every English template of the catalogue (statuses and frequencies included) in Simplified Chinese', () => {
    const missing = Object.values(PHRASES).filter((template) => !phrasebook.get(template)?.['zh-Hans']);
    expect(missing).toEqual([]);
    for (const status of ['ok', 'warn', 'fail', 'daily', 'weekly', 'monthly']) {
      expect(phrasebook.get(status)?.['zh-Hans']).toBeTruthy();
    }
  });

  it('keeps every placeholder of each template in its translation', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const template of Object.values(PHRASES)) {
      expect([template, placeholders(phrasebook.get(template)?.['zh-Hans'] ?? '')]).toEqual([
        template,
        placeholders(template),
      ]);
    }
  });

  it('translates through the TranslatorPort, then fills placeholders; unknown texts stay English', async () => {
    const translator = new PhrasebookTranslator(phrasebook);
    await expect(
      translator.translate(['ok', 'not in the book'], { to: 'zh-Hans', from: 'en' }),
    ).resolves.toEqual(['正常', 'not in the book']);
    const localizer = new Localizer(translator);
    await expect(localizer.phrase('zh-Hans', 'noItems', { device: '泵', code: 'P-1' })).resolves.toBe(
      '泵（P-1）还没有检查项。',
    );
    await expect(localizer.phrase('en', 'noItems', { device: 'Pump', code: 'P-1' })).resolves.toBe(
      'Pump (P-1) has no check items yet.',
    );
  });

  it('maps locales: zh* → zh-Hans, others → en, none → the default', () => {
    expect(languageOfLocale('zh-CN')).toBe('zh-Hans');
    expect(languageOfLocale('zh-Hant-TW')).toBe('zh-Hans');
    expect(languageOfLocale('en-GB')).toBe('en');
    expect(languageOfLocale('de-DE', 'zh-Hans')).toBe('en');
    expect(languageOfLocale(undefined, 'zh-Hans')).toBe('zh-Hans');
    expect(fillPlaceholders('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
