import { returnAddress, withOutcome } from './oidc-return-address';

const API = 'https://inspection.example.com';
const CHAT = ['https://chat.example.com'];

describe('returnAddress', () => {
  it('takes a path on the API origin and URLs on the API or a configured origin', () => {
    expect(returnAddress('/console/#/devices', API, CHAT)).toBe(
      'https://inspection.example.com/console/#/devices',
    );
    expect(returnAddress('https://inspection.example.com/console/', API, CHAT)).toBe(
      'https://inspection.example.com/console/',
    );
    expect(returnAddress('https://chat.example.com/api/session/oidc?x=1', API, CHAT)).toBe(
      'https://chat.example.com/api/session/oidc?x=1',
    );
  });

  it('refuses other sites and the usual tricks', () => {
    for (const next of [
      'https://evil.example.net/',
      '//evil.example.net/',
      '/\\evil.example.net/',
      'https://chat.example.com.evil.net/',
      'https://user:pass@chat.example.com/',
      'javascript:alert(1)',
      'http://chat.example.com/',
      'console/',
      '/console/\n',
    ]) {
      expect(returnAddress(next, API, CHAT)).toBeUndefined();
    }
  });
});

describe('withOutcome', () => {
  it('adds the outcome to the query, keeping the fragment', () => {
    expect(withOutcome('https://inspection.example.com/console/?a=1#/devices', { oidc_code: 'abc' })).toBe(
      'https://inspection.example.com/console/?a=1&oidc_code=abc#/devices',
    );
  });
});
