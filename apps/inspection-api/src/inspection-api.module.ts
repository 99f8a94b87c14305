import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtAuthModule, KeyRing } from '@fieldops/auth';
import { RateLimitStore } from '@fieldops/rate-limits';
import { checkDatabaseReady } from '@fieldops/database';
import { PlatformModule, ReadinessRegistry } from '@fieldops/platform';
import { type Logger } from '@fieldops/platform';
import { type JwtPayload } from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { ActionsController } from './actions/actions.controller';
import { ActionsService } from './actions/actions.service';
import { TeamsController } from './teams/teams.controller';
import { TeamsService } from './teams/teams.service';
import { ApiRootController } from './api-root.controller';
import { AuditController } from './audit/audit.controller';
import { AuditService } from './audit/audit.service';
import { LoginClientAddress } from './auth/login-client-address';
import { LoginThrottle, loginThrottleStore } from './auth/login-throttle.service';
import { RoleAccessModule } from './auth/role-access';
import { TokensController } from './auth/tokens.controller';
import { TokensService } from './auth/tokens.service';
import { TokenBlacklist } from './auth/token-revocation';
import { InspectionApiEnvironment } from './config/inspection-api.environment';
import { inspectionDataSourceOptions } from './database/inspection-data-source';
import { DevicesController } from './devices/devices.controller';
import { DevicesService } from './devices/devices.service';
import { DueController } from './due/due.controller';
import { DueService } from './due/due.service';
import { StatisticsController } from './statistics/statistics.controller';
import { StatisticsService } from './statistics/statistics.service';
import { DrfExceptionFilter } from './errors/drf-exception.filter';
import { EventOutbox } from './events/event-outbox';
import { EVENTS_DATABASE_URL, EventRunner } from './events/event-runner';
import { ScheduledEvents } from './events/scheduled-events';
import { NotificationPreferencesController } from './notifications/notification-preferences.controller';
import { NotificationPreferencesService } from './notifications/notification-preferences.service';
import { NotificationsService } from './notifications/notifications.service';
import { ChatHandover } from './notifications/chat-handover';
import { MailSender } from './mail/mail-sender';
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';
import { IdempotencyService } from './idempotency/idempotency.service';
import { ItemsController } from './items/items.controller';
import { ItemsService } from './items/items.service';
import { MediaController } from './media/media.controller';
import { LocalDirectoryMediaStorage, MEDIA_ROOT, MediaStorage } from './media/media-storage';
import { PlansController } from './plans/plans.controller';
import { PlansService } from './plans/plans.service';
import { RecordsController } from './records/records.controller';
import { RecordsExportService } from './records/records-export.service';
import { RecordsService } from './records/records.service';
import { ReportsController } from './reports/reports.controller';
import { ReportsService } from './reports/reports.service';
import { MonthlyReports } from './report-subscriptions/monthly-reports.service';
import { ReportSubscriptionsController } from './report-subscriptions/report-subscriptions.controller';
import { ReportSubscriptionsService } from './report-subscriptions/report-subscriptions.service';
import { OidcController } from './oidc/oidc.controller';
import { OidcSignInService } from './oidc/oidc-sign-in.service';
import { OidcSignInStore } from './oidc/oidc-sign-in-store';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';

export interface InspectionApiModuleOptions {
  environment: InspectionApiEnvironment;
  logger: Logger;
  databaseUrl: string;
  keyRing: KeyRing;
}

@Module({})
export class InspectionApiModule {
  static forRoot({ environment, logger, databaseUrl, keyRing }: InspectionApiModuleOptions): DynamicModule {
    const services: Array<Provider & object> = [
      { provide: InspectionApiEnvironment, useValue: environment },
      { provide: KeyRing, useValue: keyRing },
      { provide: MEDIA_ROOT, useValue: environment.INSPECTION_MEDIA_ROOT },
      { provide: MediaStorage, useClass: LocalDirectoryMediaStorage },
      UsersService,
      TokensService,
      TokenBlacklist,
    ];
    const shared = SharedServices.forRoot(services);
    return {
      module: InspectionApiModule,
      imports: [
        shared,
        PlatformModule.forRoot({ service: 'inspection-api', logger }),
        TypeOrmModule.forRoot(
          inspectionDataSourceOptions(
            databaseUrl,
            environment.DATABASE_POOL_SIZE,
            logger.child({ component: 'database' }),
          ),
        ),
        JwtAuthModule.forRootAsync({
          imports: [shared],
          inject: [TokensService],
          useFactory: (tokens: TokensService) => ({
            keyRing,
            algorithms: ['HS256'],
            toPrincipal: (claims: JwtPayload) => tokens.principal(claims),
          }),
        }),
        RoleAccessModule,
      ],
      controllers: [
        ApiRootController,
        TokensController,
        OidcController,
        DevicesController,
        ItemsController,
        PlansController,
        RecordsController,
        ReportsController,
        ActionsController,
        TeamsController,
        MediaController,
        // Before UsersController: its `:id` routes must not see `me/notifications`.
        NotificationPreferencesController,
        UsersController,
        DueController,
        StatisticsController,
        WebhooksController,
        ReportSubscriptionsController,
        AuditController,
      ],
      providers: [
        EventOutbox,
        { provide: EVENTS_DATABASE_URL, useValue: databaseUrl },
        WebhookDeliveriesService,
        WebhooksService,
        ScheduledEvents,
        NotificationPreferencesService,
        MailSender,
        NotificationsService,
        ChatHandover,
        EventRunner,
        DevicesService,
        ItemsService,
        PlansService,
        IdempotencyService,
        RecordsService,
        ActionsService,
        TeamsService,
        RecordsExportService,
        ReportsService,
        ReportSubscriptionsService,
        MonthlyReports,
        {
          provide: RateLimitStore,
          inject: [InspectionApiEnvironment, DataSource],
          useFactory: loginThrottleStore,
        },
        LoginThrottle,
        LoginClientAddress,
        OidcSignInStore,
        OidcSignInService,
        DueService,
        StatisticsService,
        AuditService,
        DrfExceptionFilter,
        // One instance: the app's filter, also for the pre-routed devices list.
        { provide: APP_FILTER, useExisting: DrfExceptionFilter },
        {
          provide: 'inspection-api:database-readiness',
          inject: [ReadinessRegistry, DataSource],
          useFactory: (readiness: ReadinessRegistry, dataSource: DataSource) =>
            readiness.register('database', () => checkDatabaseReady(dataSource)),
        },
        {
          // Advisory: other replicas deliver while this one's runner is failing, so it stays in the load balancer.
          provide: 'inspection-api:events-readiness',
          inject: [ReadinessRegistry, EventRunner],
          useFactory: (readiness: ReadinessRegistry, runner: EventRunner) => {
            if (environment.INSPECTION_EVENTS_RUNNER)
              readiness.registerAdvisory('events', () => runner.health());
          },
        },
      ],
    };
  }
}

/** Configuration, users, tokens and storage: one global module, so the bearer strategy's factory can use them too. */
@Module({})
class SharedServices {
  static forRoot(providers: Array<Provider & object>): DynamicModule {
    return {
      module: SharedServices,
      global: true,
      providers,
      exports: providers.map((provider) => ('provide' in provider ? provider.provide : provider)),
    };
  }
}
