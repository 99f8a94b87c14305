export { Public, IS_PUBLIC_KEY } from '@fieldops/platform';
export * from './authentication-failed.exception';
export * from './current-principal.decorator';
export * from './jwt-auth.guard';
export * from './jwt-auth.module';
export * from './jwt-auth.options';
export * from './jwt-bearer.strategy';
export * from './jwt-tokens';
export * from './key-ring';
