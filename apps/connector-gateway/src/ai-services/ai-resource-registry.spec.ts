import { defaultAiServicesConfig } from '@fieldops/platform-config';
import { AiResourceRegistry } from './ai-resource-registry';

const resource = {
  name: 'translator',
  kind: 'translator' as const,
  region: 'global',
  keys: ['a'.repeat(16), 'b'.repeat(16)] as const,
  customSubdomain: 'my-translator',
  localAuthDisabled: false,
  roleAssignments: [],
};

describe('AiResourceRegistry', () => {
  const registry = new AiResourceRegistry({
    ...defaultAiServicesConfig(),
    resources: [resource],
    regionalHosts: { 'chinaeast2.api.cognitive.azure.cn': 'chinaeast2' },
  });

  it('classifies hosts: custom subdomain (any case, trailing dot), regional, anything else', () => {
    expect(registry.addressOf('My-Translator.cognitiveservices.azure.cn.')).toEqual({
      kind: 'custom-subdomain',
      resource,
    });
    expect(registry.addressOf('chinaeast2.api.cognitive.azure.cn')).toEqual({
      kind: 'regional',
      region: 'chinaeast2',
    });
    expect(registry.addressOf('other.cognitiveservices.azure.cn')).toEqual({ kind: 'generic' });
    expect(registry.addressOf('localhost')).toEqual({ kind: 'generic' });
  });

  it('finds resources by name and names their custom-subdomain host', () => {
    expect(registry.find('translator')).toBe(resource);
    expect(registry.find('nope')).toBeUndefined();
    expect(registry.customSubdomainHost(resource)).toBe('my-translator.cognitiveservices.azure.cn');
  });
});
