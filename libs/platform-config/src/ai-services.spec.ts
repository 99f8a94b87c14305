import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigurationError } from '@fieldops/platform';
import { EMBEDDED_PHRASES } from './ai-services';
import { loadPlatformConfig, parsePlatformConfig } from './platform-config';

const context = { environment: {}, baseDirectory: '/nonexistent' };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as ConfigurationError).problems;
  }
  throw new Error('expected a ConfigurationError');
}

describe('AI services configuration', () => {
  it('reads the example file: one translator, the phrasebook file, China regional hosts', () => {
    const config = loadPlatformConfig(resolve(__dirname, '../../../infra/config/platform.example.yaml'), {
      environment: {},
    });
    expect(config.aiServices.resources).toEqual([
      expect.objectContaining({
        name: 'demo-translator',
        kind: 'translator',
        region: 'global',
        customSubdomain: 'demo-translator',
        localAuthDisabled: false,
        roleAssignments: [],
      }),
    ]);
    expect(config.aiServices.tokenExchangeRegions).toEqual(['chinaeast2', 'chinanorth2']);
    expect(config.aiServices.regionalHosts).toEqual({
      'chinaeast2.api.cognitive.azure.cn': 'chinaeast2',
      'chinanorth2.api.cognitive.azure.cn': 'chinanorth2',
    });
    expect(config.aiServices.translation.provider).toBe('phrasebook');
    if (config.aiServices.translation.provider !== 'phrasebook') return;
    expect(config.aiServices.translation.phrases).toContainEqual({ en: 'fail', 'zh-Hans': '故障' });
  });

  it('defaults to no resources and the embedded phrasebook when the section is absent', () => {
    const config = parsePlatformConfig('bots: []', 'test', context);
    expect(config.aiServices).toEqual({
      resources: [],
      translation: { provider: 'phrasebook', phrases: EMBEDDED_PHRASES },
      regionalHosts: {},
      tokenExchangeRegions: ['chinaeast2', 'chinanorth2'],
      customSubdomainHostSuffix: 'cognitiveservices.azure.cn',
    });
  });

  it('resolves keys and the upstream key from secret references', () => {
    const config = parsePlatformConfig(
      [
        'bots: []',
        'aiServices:',
        '  resources:',
        '    - { name: ms, kind: multi-service, region: chinaeast2, keys: [{ env: K1 }, { env: K2 }],',
        '        localAuthDisabled: true, roleAssignments: [app-1], charactersPerHour: 1000 }',
        '  translation:',
        '    provider: upstream',
        '    upstream: { endpoint: "https://api.translator.azure.cn/", key: { env: UP }, region: chinaeast2 }',
      ].join('\n'),
      'test',
      {
        environment: { K1: 'first-key-0000000001', K2: 'second-key-000000002', UP: 'upstream-key' },
        baseDirectory: '/',
      },
    );
    expect(config.aiServices.resources[0]).toEqual({
      name: 'ms',
      kind: 'multi-service',
      region: 'chinaeast2',
      keys: ['first-key-0000000001', 'second-key-000000002'],
      localAuthDisabled: true,
      roleAssignments: ['app-1'],
      charactersPerHour: 1000,
    });
    expect(config.aiServices.translation).toEqual({
      provider: 'upstream',
      endpoint: 'https://api.translator.azure.cn',
      key: 'upstream-key',
      region: 'chinaeast2',
      timeoutMs: 15000,
    });
  });

  it('names bad subdomains, duplicate subdomains and names, key counts, short and shared keys', () => {
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots: []',
          'aiServices:',
          '  resources:',
          '    - { name: a, kind: translator, region: global, keys: [key-a-000000000001, key-a-000000000002], customSubdomain: same }',
          '    - { name: a, kind: translator, region: global, keys: [key-b-000000000001, key-a-000000000001], customSubdomain: SAME }',
          '    - { name: c, kind: speech, region: global, keys: [only-one-key-000001] }',
          '    - { name: d, kind: translator, region: global, keys: [short, key-d-000000000002], customSubdomain: ends- }',
          '    - { name: e, kind: translator, region: global, keys: [key-e-000000000001, key-e-000000000002], customSubdomain: "a.b" }',
          '    - { name: f, kind: translator, region: global, keys: [key-f-000000000001, key-f-000000000002], customSubdomain: x }',
        ].join('\n'),
        'test',
        context,
      ),
    );
    const text = problems.join('\n');
    expect(text).toContain('aiServices.resources.2.kind');
    expect(text).toContain('aiServices.resources.2.keys');
    expect(text).toContain('aiServices.resources.3.customSubdomain');
    expect(text).toContain('aiServices.resources.4.customSubdomain');
    expect(text).toContain('aiServices.resources.5.customSubdomain');
    const semantic = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots: []',
          'aiServices:',
          '  resources:',
          '    - { name: a, kind: translator, region: global, keys: [key-a-000000000001, key-a-000000000002], customSubdomain: same }',
          '    - { name: a, kind: translator, region: global, keys: [short, key-a-000000000001], customSubdomain: SAME }',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(semantic).toEqual(
      expect.arrayContaining([
        'aiServices.resources.1.name: duplicate resource name "a"',
        'aiServices.resources.1.customSubdomain: "same" is already used by aiServices.resources.0',
        'aiServices.resources.1.keys.0: must be at least 16 characters',
        'aiServices.resources.1.keys.1: the same key is already used by aiServices.resources.0.keys.0',
      ]),
    );
  });

  it('reads phrasebook files relative to the configuration file and names broken ones', () => {
    const directory = mkdtempSync(join(tmpdir(), 'platform-config-ai-'));
    writeFileSync(
      join(directory, 'one.yaml'),
      'phrases:\n  - { en: Inspection complete, zh-Hans: 检查完成 }\n',
    );
    writeFileSync(join(directory, 'bad.yaml'), 'phrases:\n  - { en: lonely }\n');
    writeFileSync(
      join(directory, 'platform.yaml'),
      'bots: []\naiServices:\n  translation: { provider: phrasebook, phrasebooks: [one.yaml] }\n',
    );
    const config = loadPlatformConfig(join(directory, 'platform.yaml'), { environment: {} });
    expect(config.aiServices.translation).toEqual({
      provider: 'phrasebook',
      phrases: [{ en: 'Inspection complete', 'zh-Hans': '检查完成' }],
    });
    writeFileSync(
      join(directory, 'platform.yaml'),
      'bots: []\naiServices:\n  translation: { provider: phrasebook, phrasebooks: [bad.yaml, missing.yaml] }\n' +
        '  translationX: 1\n',
    );
    const problems = problemsOf(() =>
      loadPlatformConfig(join(directory, 'platform.yaml'), { environment: {} }),
    ).join('\n');
    expect(problems).toMatch(/phrasebooks\.0 .*phrases\.0: needs two or more language codes/);
    expect(problems).toMatch(/phrasebooks\.1: cannot read phrasebook .*missing\.yaml/);
  });

  it('requires upstream settings for the upstream provider and valid regional hosts', () => {
    const problems = problemsOf(() =>
      parsePlatformConfig(
        [
          'bots: []',
          'aiServices:',
          '  translation: { provider: upstream }',
          '  regionalHosts: { "bad host": chinaeast2, ok.example: "Not A Region" }',
        ].join('\n'),
        'test',
        context,
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'aiServices.translation.upstream: required when provider is upstream',
        'aiServices.regionalHosts: "bad host" is not a host name',
        'aiServices.regionalHosts.ok.example: must be a region name',
      ]),
    );
  });
});
