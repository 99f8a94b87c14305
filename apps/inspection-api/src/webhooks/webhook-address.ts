import ipaddr from 'ipaddr.js';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/** A network an operator opened to webhooks (INSPECTION_WEBHOOK_ALLOWED_NETWORKS), e.g. `10.0.0.0/8`. */
export type AllowedNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

export const parseNetworks = (cidrs: readonly string[]): AllowedNetwork[] =>
  cidrs.map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * The webhook address rule (SSRF): a webhook may only reach a public unicast address. Loopback, private, link-local,
 * unique-local, carrier-grade NAT, multicast, broadcast, unspecified and reserved addresses (IPv4-mapped IPv6 ones
 * judged as their IPv4 address) are refused, unless they lie in a network the operator allowed. Returns why an
 * address is refused, or undefined when it may be reached.
 */
export function refusedAddress(address: string, allowed: readonly AllowedNetwork[]): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = ipaddr.process(address); // ::ffff:127.0.0.1 → 127.0.0.1
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (allowed.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits)))
    return undefined;
  return `${parsed.toString()} is a ${range} address (webhooks reach public addresses only; see INSPECTION_WEBHOOK_ALLOWED_NETWORKS)`;
}

/** Environment validation: every entry is a CIDR network (`10.0.0.0/8`, `127.0.0.1/32`, `fd00::/8`). */
export function AreNetworks(validationOptions?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'areNetworks',
      target: target.constructor,
      propertyName: String(propertyName),
      options: validationOptions,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((cidr) => typeof cidr === 'string' && ipaddr.isValidCIDR(cidr)),
        defaultMessage: () =>
          `${String(propertyName)} must be a comma-separated list of CIDR networks (10.0.0.0/8, 127.0.0.1/32, fd00::/8)`,
      },
    });
  };
}
