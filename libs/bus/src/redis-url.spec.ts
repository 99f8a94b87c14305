import { redactRedisUrl } from './redis-url';

describe('redactRedisUrl', () => {
  it('removes user name and password', () => {
    expect(redactRedisUrl('redis://default:s3cret@redis:6379/2')).toBe('redis://redis:6379/2');
    expect(redactRedisUrl('rediss://:s3cret@redis.example.com')).toBe('rediss://redis.example.com');
  });

  it('does not echo an unparseable URL', () => {
    expect(redactRedisUrl('s3cret@@::')).toBe('<unparseable Redis URL>');
  });
});
