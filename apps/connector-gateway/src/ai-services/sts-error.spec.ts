import { BOT_FRAMEWORK_ERROR_CODES } from '@fieldops/contracts';
import { ErrorEnvelopeException } from '@fieldops/platform';
import { ACCESS_DENIED_MESSAGE, STS_ERRORS, StsException } from './sts-error';

describe('StsException', () => {
  it("is the real service's 401 with its string code and message", () => {
    const refusal = new StsException('401');
    expect(refusal).toBeInstanceOf(ErrorEnvelopeException);
    expect(refusal.getStatus()).toBe(401);
    expect(refusal.code).toBe('401');
    expect(refusal.message).toBe(ACCESS_DENIED_MESSAGE);
  });

  it('carries a more precise message when the authenticator gives one', () => {
    const refusal = new StsException('401', 'The key is disabled.');
    expect([refusal.getStatus(), refusal.code, refusal.message]).toEqual([
      401,
      '401',
      'The key is disabled.',
    ]);
  });

  it('names codes of its own catalogue only, each its HTTP status', () => {
    for (const code of Object.keys(STS_ERRORS)) {
      expect(BOT_FRAMEWORK_ERROR_CODES as readonly string[]).not.toContain(code);
      expect(String(new StsException(code as keyof typeof STS_ERRORS).getStatus())).toBe(code);
    }
  });
});
