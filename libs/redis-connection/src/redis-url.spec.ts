import { hashTag, parseRedisUrl, redactRedisUrl } from './redis-url';

describe('parseRedisUrl', () => {
  it('keeps a single-server URL as it is', () => {
    expect(parseRedisUrl('redis://:pw@127.0.0.1:6379/2')).toEqual({
      kind: 'single',
      url: 'redis://:pw@127.0.0.1:6379/2',
    });
    expect(parseRedisUrl('rediss://redis.example.com').kind).toBe('single');
  });

  it('reads the seed nodes and credentials of a cluster URL', () => {
    expect(parseRedisUrl('redis+cluster://app:p%40ss@10.0.0.1:7000,[::1]:7001,redis-2:7002')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '::1', port: 7001 },
        { host: 'redis-2', port: 7002 },
      ],
      username: 'app',
      password: 'p@ss',
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://h:1/')).toMatchObject({ kind: 'cluster', tls: true });
  });

  it('reads the sentinels, primary name, database and sentinel password of a sentinel URL', () => {
    expect(parseRedisUrl('redis+sentinel://:pw@s1:26379,s2:26379/fieldops/3?sentinelPassword=sp')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      primaryName: 'fieldops',
      db: 3,
      password: 'pw',
      sentinelPassword: 'sp',
      tls: false,
    });
  });

  it.each([
    ['http://h:1', /must start with one of/],
    ['redis+cluster://h', /not a host:port pair/],
    ['redis+cluster://h:1,h:99999', /not a host:port pair/],
    ['redis+cluster://h:1/2', /no path/],
    ['redis+cluster://h:1?x=1', /no query/],
    ['redis+sentinel://s:26379', /primary-name/],
    ['redis+sentinel://s:26379/p/x', /must be a number/],
    ['redis+sentinel://s:26379/p?password=1', /unknown query/],
  ])('refuses %s', (url, message) => {
    expect(() => parseRedisUrl(url)).toThrow(message);
  });
});

describe('redactRedisUrl', () => {
  it('removes user name and password', () => {
    expect(redactRedisUrl('redis://default:s3cret@redis:6379/2')).toBe('redis://redis:6379/2');
    expect(redactRedisUrl('rediss://:s3cret@redis.example.com')).toBe('rediss://redis.example.com');
    expect(redactRedisUrl('redis+cluster://u:s3cret@a:1,b:2')).toBe('redis+cluster://a:1,b:2');
    expect(redactRedisUrl('rediss+sentinel://:s3cret@a:1/main?sentinelPassword=s3cret')).toBe(
      'rediss+sentinel://a:1/main/0',
    );
  });

  it('does not echo an unparseable URL', () => {
    expect(redactRedisUrl('s3cret@@::')).toBe('<unparseable Redis URL>');
  });
});

describe('hashTag', () => {
  it('wraps the value in braces, or its digest when it holds braces', () => {
    expect(hashTag('abc-1')).toBe('{abc-1}');
    expect(hashTag('a}b')).toMatch(/^\{#[0-9a-f]{40}\}$/);
    expect(hashTag('a}b')).toBe(hashTag('a}b'));
  });
});
