import { BadRequestException } from '@nestjs/common';

/** Django's `host_validation_re`: a DNS name or IPv4 address, or a bracketed IPv6 literal, and an optional port. */
const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/;

/** What Django allows in DEBUG mode: local names only (every app's default allowed-hosts list). */
export const LOCAL_HOSTS: readonly string[] = ['.localhost', '127.0.0.1', '[::1]'];

/**
 * Django's `split_domain_port`: the domain of a Host value (lower case, trailing dot dropped), or undefined when the
 * value is not a valid host at all.
 */
export function hostDomain(host: string): string | undefined {
  const lower = host.toLowerCase();
  if (!HOST_SYNTAX.test(lower)) return undefined;
  if (lower.endsWith(']')) return lower;
  const colon = lower.lastIndexOf(':');
  const domain = colon === -1 ? lower : lower.slice(0, colon);
  return domain.endsWith('.') ? domain.slice(0, -1) : domain;
}

/**
 * Django's `validate_host`: `*` matches anything, `.example.com` matches example.com and every subdomain, any other
 * pattern matches exactly (case-insensitively; patterns carry no port).
 */
export function hostAllowed(domain: string, patterns: readonly string[]): boolean {
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase();
    if (pattern === '*') return true;
    if (pattern.startsWith('.')) return domain.endsWith(pattern) || domain === pattern.slice(1);
    return domain === pattern;
  });
}

/** Whether a Host value (with its port) is valid and matches one of `patterns`. */
export function namedHostAllowed(host: string | undefined, patterns: readonly string[]): boolean {
  const domain = hostDomain(host ?? '');
  return domain !== undefined && domain !== '' && hostAllowed(domain, patterns);
}

/** An allowed-hosts setting: comma-separated patterns (for class-transformer's `@Transform`). */
export function toHostList({ value }: { value: unknown }): unknown {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((host) => host.trim())
        .filter((host) => host !== '')
    : value;
}

/**
 * A request whose Host (or trusted X-Forwarded-Host) is not allowed asked for an absolute URL: 400 in the app's wire
 * format (its exception filter), naming nothing of the host list.
 */
export class HostNotAllowedException extends BadRequestException {
  constructor(host: string | undefined) {
    super(`Invalid Host header ${JSON.stringify(host ?? '')}: not a host of this service`);
  }
}
