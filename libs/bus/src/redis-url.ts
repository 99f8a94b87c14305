/** The Redis URL without credentials, safe to put in logs and error messages. */
export function redactRedisUrl(redisUrl: string): string {
  try {
    const url = new URL(redisUrl);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return '<unparseable Redis URL>';
  }
}
