/**
 * How long a login for a user name waits before its password is checked: nothing below `after` refused passwords
 * for that name in the window, then 1 s, doubling with each further refusal, at most `maxSeconds` (0 disables).
 */
export function loginDelaySeconds(refusals: number, after: number, maxSeconds: number): number {
  if (after <= 0 || maxSeconds <= 0 || !Number.isFinite(refusals) || refusals < after) return 0;
  return Math.min(2 ** Math.min(refusals - after, 30), maxSeconds);
}
