import { validateSync } from 'class-validator';
import { IsRedisUrl } from './is-redis-url';

class Environment {
  @IsRedisUrl() REDIS_URL!: string;
}

function errorsOf(value: string): string[] {
  const environment = new Environment();
  environment.REDIS_URL = value;
  return validateSync(environment).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('IsRedisUrl', () => {
  it('accepts every topology', () => {
    expect(errorsOf('redis://127.0.0.1:6379')).toEqual([]);
    expect(errorsOf('redis+cluster://a:7000,b:7001')).toEqual([]);
    expect(errorsOf('redis+sentinel://a:26379/fieldops')).toEqual([]);
  });

  it('names the variable and the problem without echoing the value', () => {
    const [message] = errorsOf('redis+cluster://:s3cret@a');
    expect(message).toMatch(/^REDIS_URL "a" is not a host:port pair$/);
    expect(message).not.toContain('s3cret');
  });
});
