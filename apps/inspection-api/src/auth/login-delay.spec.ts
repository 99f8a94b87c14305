import { loginDelaySeconds } from './login-delay';

describe('loginDelaySeconds', () => {
  it('is 0 below the threshold, then doubles from 1 s up to the maximum', () => {
    expect([0, 4, 5, 6, 7, 8, 9, 10, 100].map((refusals) => loginDelaySeconds(refusals, 5, 16))).toEqual([
      0, 0, 1, 2, 4, 8, 16, 16, 16,
    ]);
  });

  it('is 0 when disabled', () => {
    expect(loginDelaySeconds(50, 0, 16)).toBe(0);
    expect(loginDelaySeconds(50, 5, 0)).toBe(0);
    expect(loginDelaySeconds(Number.NEGATIVE_INFINITY, 5, 16)).toBe(0);
  });
});
