import { badArgument } from '@fieldops/contracts';
import { lowerKeys } from '../../direct-line/case-insensitive';

/** The optional body of tokens/generate, property names case-insensitive (`user.id` or `User.Id`). */
export interface TokenParameters {
  userId?: string;
  userName?: string;
  trustedOrigins: string[];
}

export function parseTokenParameters(body: unknown): TokenParameters {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw badArgument('Token parameters must be a JSON object');
  }
  const record = lowerKeys(body);
  const user = lowerKeys(record.user);
  const parameters: TokenParameters = { trustedOrigins: [] };
  if (user.id !== undefined) {
    if (typeof user.id !== 'string' || user.id.trim() === '' || user.id.length > 256) {
      throw badArgument('user.id must be a non-empty string');
    }
    parameters.userId = user.id;
  }
  if (user.name !== undefined) {
    if (typeof user.name !== 'string') throw badArgument('user.name must be a string');
    parameters.userName = user.name;
  }
  const origins = record.trustedorigins;
  if (origins !== undefined) {
    if (!Array.isArray(origins) || !origins.every((origin) => typeof origin === 'string')) {
      throw badArgument('trustedOrigins must be an array of strings');
    }
    parameters.trustedOrigins = origins.map((origin) => {
      try {
        return new URL(origin).origin;
      } catch {
        throw badArgument(`trustedOrigins: ${origin} is not an origin URL`);
      }
    });
  }
  return parameters;
}
