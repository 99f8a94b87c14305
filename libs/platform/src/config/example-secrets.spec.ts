import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Expose } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { CommonEnvironment } from './common-environment';
import { ConfigurationError } from './configuration-error';
import { isExampleSecret, PUBLISHED_EXAMPLE_SECRETS } from './example-secrets';
import { loadEnvironment } from './load-environment';
import { repositoryRoot } from './repository-root';

class SecretEnvironment extends CommonEnvironment {
  @Expose() @IsOptional() @IsString() EXAMPLE_SIGNING_KEY?: string;
  @Expose() @IsOptional() @IsString() EXAMPLE_PASSWORD?: string;
}

describe('published example secrets', () => {
  it("lists every secret fallback of infra/config/platform.example.yaml (the `${NAME:-value}` of a secret's variable)", () => {
    const text = readFileSync(join(repositoryRoot(__dirname), 'infra/config/platform.example.yaml'), 'utf8');
    const fallbacks = [...text.matchAll(/\$\{([A-Z0-9_]+):-([^}]*)\}/g)]
      .filter(([, name]) => /SECRET|PASSWORD|KEY/.test(name ?? ''))
      .map(([, , value]) => value);
    expect(new Set(fallbacks)).toEqual(PUBLISHED_EXAMPLE_SECRETS);
    expect(isExampleSecret('change-me-relay-token-signing-key-0123456789')).toBe(true);
    expect(isExampleSecret('Change-Me-Too')).toBe(true);
    expect(isExampleSecret('a-secret-that-is-not-published-0001')).toBe(false);
  });

  it('are refused outside tests, naming each variable without echoing its value', () => {
    let error: unknown;
    try {
      loadEnvironment(
        SecretEnvironment,
        {
          NODE_ENV: 'production',
          EXAMPLE_SIGNING_KEY: 'change-me-in-production-0123456789abcdef',
          EXAMPLE_PASSWORD: 'inspection-bot-dev-password',
        },
        'example',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const { problems, message } = error as ConfigurationError;
    expect(problems).toEqual([
      expect.stringMatching(/^EXAMPLE_SIGNING_KEY: holds a published example value/),
      expect.stringMatching(/^EXAMPLE_PASSWORD: holds a published example value/),
    ]);
    expect(message).not.toContain('0123456789abcdef');
    expect(message).not.toContain('inspection-bot-dev-password');
  });

  it('are accepted in a test run (NODE_ENV=test, given or inherited from the test runner)', () => {
    const values = { EXAMPLE_SIGNING_KEY: 'change-me-in-production-0123456789abcdef' };
    expect(
      loadEnvironment(SecretEnvironment, { ...values, NODE_ENV: 'test' }, 'example').EXAMPLE_SIGNING_KEY,
    ).toBe(values.EXAMPLE_SIGNING_KEY);
    expect(loadEnvironment(SecretEnvironment, values, 'example').EXAMPLE_SIGNING_KEY).toBe(
      values.EXAMPLE_SIGNING_KEY,
    );
  });
});
