import { type Role } from '../users/role';

export interface RoleMapping {
  /** The claim holding groups or roles; a dotted path reaches into objects (`realm_access.roles`). */
  claim: string;
  supervisorValues: readonly string[];
  /** `*`: every person the provider signs in who is not a supervisor. */
  inspectorValues: readonly string[];
}

/** The claim's values: a string, a list of strings, or nothing (other types count as nothing). */
function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = path in claims ? claims[path] : claims;
  if (!(path in claims)) {
    for (const part of path.split('.')) {
      value =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)[part]
          : undefined;
    }
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * The role a person signed in through the provider gets from the configured claim: supervisor when one of its
 * values is a supervisor value, otherwise inspector when one is an inspector value (or the inspector values are
 * `*`), otherwise none (the sign-in is refused). Applied at every sign-in, so a change at the provider reaches the
 * account the next time the person signs in.
 */
export function roleFromClaims(claims: Record<string, unknown>, mapping: RoleMapping): Role | undefined {
  const values = new Set(claimValues(claims, mapping.claim));
  if (mapping.supervisorValues.some((value) => values.has(value))) return 'supervisor';
  if (mapping.inspectorValues.includes('*')) return 'inspector';
  if (mapping.inspectorValues.some((value) => values.has(value))) return 'inspector';
  return undefined;
}
