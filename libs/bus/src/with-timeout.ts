/**
 * Settles like `promise`, or rejects with `createTimeoutError()` after `timeoutMs`. The original promise keeps
 * running; its late rejection is handled here, so it never surfaces as unhandled.
 */
export function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  createTimeoutError: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(createTimeoutError()), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
