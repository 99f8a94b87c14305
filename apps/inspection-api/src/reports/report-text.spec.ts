import { localDateTime, reportLanguage } from './report-text';

describe('reportLanguage', () => {
  it('takes ?lang= first (any case), and refuses a language reports are not written in', () => {
    expect(reportLanguage('zh-cn', 'en')).toBe('zh-CN');
    expect(reportLanguage('EN', 'zh-CN')).toBe('en');
    expect(reportLanguage('fr', 'en')).toBeUndefined();
  });

  it('else reads Accept-Language by quality, then order', () => {
    expect(reportLanguage(undefined, 'zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(reportLanguage('', 'zh-Hans')).toBe('zh-CN');
    expect(reportLanguage(undefined, 'en;q=0.5, zh;q=0.9')).toBe('zh-CN');
    expect(reportLanguage(undefined, 'fr-FR, de;q=0.9, en-GB;q=0.8, zh;q=0.7')).toBe('en');
    expect(reportLanguage(undefined, 'zh-TW')).toBe('en');
    expect(reportLanguage(undefined, 'zh;q=0, en')).toBe('en');
  });

  it('else English', () => {
    expect(reportLanguage(undefined, undefined)).toBe('en');
    expect(reportLanguage(undefined, 'fr')).toBe('en');
  });
});

describe('localDateTime', () => {
  it('prints an instant in the configured time zone', () => {
    expect(localDateTime(new Date('2026-11-27T16:05:00Z'), 'Asia/Shanghai')).toBe('2026-11-28 00:05');
    expect(localDateTime(new Date('2026-11-27T16:05:00Z'), 'UTC')).toBe('2026-11-27 16:05');
  });
});
