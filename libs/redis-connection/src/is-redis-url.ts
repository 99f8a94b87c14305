import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { parseRedisUrl } from './redis-url';

/**
 * Environment validation of a Redis URL in any of the supported topologies (see `parseRedisUrl`); the message names
 * the variable and says what is wrong, without echoing the value (it may hold a password).
 */
export function IsRedisUrl(validationOptions?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isRedisUrl',
      target: target.constructor,
      propertyName: String(propertyName),
      options: validationOptions,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && problemOf(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'REDIS_URL'} ${typeof args?.value === 'string' ? (problemOf(args.value) ?? '') : 'must be a string'}`,
      },
    });
  };
}

function problemOf(value: string): string | undefined {
  try {
    parseRedisUrl(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
