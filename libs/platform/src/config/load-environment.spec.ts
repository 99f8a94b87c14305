import { Expose } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { CommonEnvironment } from './common-environment';
import { ConfigurationError } from './configuration-error';
import { ToBoolean, ToInteger } from './environment-transforms';
import { environmentVariableNames, loadEnvironment } from './load-environment';

class ExampleEnvironment extends CommonEnvironment {
  @Expose() @ToInteger() @IsInt() @Min(1) @Max(65535) EXAMPLE_PORT: number = 8080;
  @Expose() @ToBoolean() @IsBoolean() EXAMPLE_FLAG: boolean = true;
  @Expose() @IsOptional() @IsString() EXAMPLE_URL?: string;
}

class UrlEnvironment {
  @Expose() @IsOptional() @IsUrl({ protocols: ['redis'], require_tld: false }) EXAMPLE_REDIS_URL?: string;
}

describe('loadEnvironment', () => {
  it('applies defaults, converts types, treats empty strings as unset and ignores unrelated variables', () => {
    const settings = loadEnvironment(
      ExampleEnvironment,
      { EXAMPLE_PORT: '9090', EXAMPLE_FLAG: 'off', EXAMPLE_URL: '', PATH: '/bin' },
      'example',
    );
    expect(settings).toBeInstanceOf(ExampleEnvironment);
    expect(settings.EXAMPLE_PORT).toBe(9090);
    expect(settings.EXAMPLE_FLAG).toBe(false);
    expect(settings.EXAMPLE_URL).toBeUndefined();
    expect(settings.LOG_LEVEL).toBe('info');
    expect(settings).not.toHaveProperty('PATH');
  });

  it('fails fast naming every offending variable and what it got', () => {
    let error: unknown;
    try {
      loadEnvironment(
        ExampleEnvironment,
        { EXAMPLE_PORT: 'eighty', EXAMPLE_FLAG: 'maybe', LOG_LEVEL: 'loud' },
        'example',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as ConfigurationError).message;
    expect(message).toMatch(/^Invalid configuration for example:/);
    expect(message).toContain('EXAMPLE_PORT');
    expect(message).toContain('"eighty"');
    expect(message).toContain('EXAMPLE_FLAG');
    expect(message).toContain('LOG_LEVEL');
    expect((error as ConfigurationError).problems.length).toBeGreaterThanOrEqual(3);
  });

  it('masks the credentials of a URL it echoes', () => {
    expect(() =>
      loadEnvironment(UrlEnvironment, { EXAMPLE_REDIS_URL: 'http://app:s3cret@redis:6379' }, 'example'),
    ).toThrow(/EXAMPLE_REDIS_URL: .* \(got "http:\/\/\*\*\*@redis:6379"\)/);
  });

  it('names a credential variable it refuses but never echoes its value', () => {
    expect(() =>
      loadEnvironment(ExampleEnvironment, { METRICS_BEARER_TOKEN: 'short-s3cret' }, 'example'),
    ).toThrow(/METRICS_BEARER_TOKEN: .* \(got \[redacted, 12 characters\]\)/);
    expect(() =>
      loadEnvironment(ExampleEnvironment, { METRICS_BEARER_TOKEN: 'short-s3cret' }, 'example'),
    ).not.toThrow(/s3cret/);
  });

  it('reads the metrics exposure settings', () => {
    const settings = loadEnvironment(
      ExampleEnvironment,
      { METRICS_PORT: '9464', METRICS_BEARER_TOKEN: 'a-long-enough-metrics-token' },
      'example',
    );
    expect(settings.METRICS_PORT).toBe(9464);
    expect(settings.METRICS_BEARER_TOKEN).toBe('a-long-enough-metrics-token');
    expect(() => loadEnvironment(ExampleEnvironment, { METRICS_PORT: 'x' }, 'example')).toThrow(
      /METRICS_PORT/,
    );
  });

  it('lists the variables a class reads, inherited ones included', () => {
    expect(environmentVariableNames(ExampleEnvironment).sort()).toEqual(
      [
        'EXAMPLE_FLAG',
        'EXAMPLE_PORT',
        'EXAMPLE_URL',
        'HOST',
        'HTTP_HEADERS_TIMEOUT_MS',
        'HTTP_REQUEST_TIMEOUT_MS',
        'JSON_MAX_DEPTH',
        'LOG_LEVEL',
        'METRICS_BEARER_TOKEN',
        'METRICS_PORT',
        'SHUTDOWN_TIMEOUT_MS',
        'TRUST_PROXY',
      ].sort(),
    );
  });
});
