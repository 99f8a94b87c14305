import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { createJwtAuthGuard, JWT_AUTH_GUARD } from './jwt-auth.guard';
import { JWT_AUTH_OPTIONS, type JwtAuthOptions } from './jwt-auth.options';
import { createJwtBearerStrategy } from './jwt-bearer.strategy';

export interface JwtAuthModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...dependencies: never[]) => JwtAuthOptions | Promise<JwtAuthOptions>;
}

let instances = 0;

/** Bearer-JWT authentication for a whole app: its own passport strategy plus the fail-closed global guard. */
@Module({})
export class JwtAuthModule {
  static forRootAsync(options: JwtAuthModuleAsyncOptions): DynamicModule {
    const strategyName = `fieldops-jwt-bearer-${++instances}`;
    const guard = createJwtAuthGuard(strategyName);
    return {
      module: JwtAuthModule,
      imports: [PassportModule, ...(options.imports ?? [])],
      providers: [
        { provide: JWT_AUTH_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        createJwtBearerStrategy(strategyName),
        guard,
        // One instance: the global guard and the one pre-routed fronts call share its verified-header cache.
        { provide: APP_GUARD, useExisting: guard },
        { provide: JWT_AUTH_GUARD, useExisting: guard },
      ],
      exports: [JWT_AUTH_OPTIONS, JWT_AUTH_GUARD],
    };
  }
}
