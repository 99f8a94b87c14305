import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtAuthModule, type KeyRing } from '@fieldops/auth';
import { checkDatabaseReady } from '@fieldops/database';
import { PlatformModule, ReadinessRegistry } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { DataSource } from 'typeorm';
import { InspectionApiEnvironment } from './config/inspection-api.environment';
import { inspectionDataSourceOptions } from './database/inspection-data-source';
import { DrfExceptionFilter } from './errors/drf-exception.filter';

export interface InspectionApiModuleOptions {
  environment: InspectionApiEnvironment;
  logger: Logger;
  databaseUrl: string;
  keyRing: KeyRing;
}

@Module({})
export class InspectionApiModule {
  static forRoot({ environment, logger, databaseUrl, keyRing }: InspectionApiModuleOptions): DynamicModule {
    return {
      module: InspectionApiModule,
      imports: [
        PlatformModule.forRoot({ service: 'inspection-api', logger }),
        TypeOrmModule.forRoot(
          inspectionDataSourceOptions(
            databaseUrl,
            environment.DATABASE_POOL_SIZE,
            logger.child({ component: 'database' }),
          ),
        ),
        JwtAuthModule.forRootAsync({ useFactory: () => ({ keyRing, algorithms: ['HS256'] }) }),
      ],
      providers: [
        { provide: InspectionApiEnvironment, useValue: environment },
        { provide: APP_FILTER, useClass: DrfExceptionFilter },
        {
          provide: 'inspection-api:database-readiness',
          inject: [ReadinessRegistry, DataSource],
          useFactory: (readiness: ReadinessRegistry, dataSource: DataSource) =>
            readiness.register('database', () => checkDatabaseReady(dataSource)),
        },
      ],
    };
  }
}
