import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CloudAdapter, ConversationState, MemoryStorage, MessageFactory } from 'botbuilder';
import { type BotFrameworkAuthentication } from 'botframework-connector';
import { LOGGER, type Logger, ReadinessRegistry } from '@fieldops/platform';
import { ConversationLocales } from '../chat-page/conversation-locales';
import { InspectionBotEnvironment } from '../config/inspection-bot.environment';
import { InspectionBot } from '../dialog/inspection-bot';
import { InspectionApiClient } from '../inspection-api/inspection-api.client';
import { LibraryConsole } from '../logging/library-console';
import { languageOfLocale, Localizer } from '../phrases/localizer';
import { InspectorTokens } from '../sign-in/inspector-tokens';
import { GatewayTranslator } from '../phrases/gateway-translator';
import { PhrasebookTranslator } from '../phrases/phrasebook-translator';
import { TRANSLATOR, type TranslatorPort } from '../phrases/translator.port';
import { createBotFrameworkAuthentication } from './bot-authentication';
import { BOT_FRAMEWORK_AUTHENTICATION, BotTokenGuard } from './bot-token.guard';
import { MessagesController } from './messages.controller';

/** The bot: CloudAdapter on POST /api/messages, the inspection dialog, its inspection-api client and phrases. */
@Module({
  controllers: [MessagesController],
  exports: [CloudAdapter],
  providers: [
    // botbuilder's console output (refused tokens, failed turns) as JSON lines through the platform logger.
    {
      provide: LibraryConsole,
      inject: [LOGGER],
      useFactory: (logger: Logger) => LibraryConsole.install(logger.child({ component: 'botbuilder' })),
    },
    {
      provide: TRANSLATOR,
      inject: [InspectionBotEnvironment, LOGGER],
      useFactory: (environment: InspectionBotEnvironment, logger: Logger): TranslatorPort =>
        environment.INSPECTION_BOT_TRANSLATOR_URL && environment.INSPECTION_BOT_TRANSLATOR_KEY
          ? new GatewayTranslator({
              endpoint: environment.INSPECTION_BOT_TRANSLATOR_URL,
              authentication: environment.INSPECTION_BOT_TRANSLATOR_AUTH,
              keys: [
                environment.INSPECTION_BOT_TRANSLATOR_KEY,
                environment.INSPECTION_BOT_TRANSLATOR_KEY_2,
              ].filter((key): key is string => key !== undefined),
              region: environment.INSPECTION_BOT_TRANSLATOR_REGION,
              logger: logger.child({ component: 'translator' }),
            })
          : PhrasebookTranslator.fromFile(environment.INSPECTION_BOT_PHRASEBOOK),
    },
    {
      provide: Localizer,
      inject: [TRANSLATOR],
      useFactory: (translator: TranslatorPort) => new Localizer(translator),
    },
    // Per-conversation memory (the record a photo goes to); in-process, like the bot's single instance.
    { provide: ConversationState, useFactory: () => new ConversationState(new MemoryStorage()) },
    {
      provide: InspectionBot,
      inject: [
        InspectionApiClient,
        Localizer,
        ConversationState,
        InspectionBotEnvironment,
        LOGGER,
        ConversationLocales,
        InspectorTokens,
      ],
      useFactory: (
        api: InspectionApiClient,
        localizer: Localizer,
        conversationState: ConversationState,
        environment: InspectionBotEnvironment,
        logger: Logger,
        locales: ConversationLocales,
        inspectorTokens: InspectorTokens,
      ) =>
        new InspectionBot({
          inspectorTokenOf: (userId) => inspectorTokens.writerOf(userId),
          pageLocaleOf: (conversationId) => locales.localeOf(conversationId),
          api,
          localizer,
          conversationState,
          logger: logger.child({ component: 'dialog' }),
          defaultLanguage: environment.INSPECTION_BOT_DEFAULT_LOCALE,
          updateAnsweredCards: environment.INSPECTION_BOT_UPDATE_ANSWERED_CARDS,
        }),
    },
    {
      provide: BOT_FRAMEWORK_AUTHENTICATION,
      inject: [InspectionBotEnvironment],
      useFactory: (environment: InspectionBotEnvironment) => createBotFrameworkAuthentication(environment),
    },
    BotTokenGuard,
    {
      provide: CloudAdapter,
      inject: [BOT_FRAMEWORK_AUTHENTICATION, InspectionBotEnvironment, Localizer, LOGGER],
      useFactory: (
        authentication: BotFrameworkAuthentication,
        environment: InspectionBotEnvironment,
        localizer: Localizer,
        logger: Logger,
      ) => {
        const adapter = new CloudAdapter(authentication);
        adapter.onTurnError = async (context, error) => {
          logger.error({ err: error, activityType: context.activity.type }, 'bot turn failed');
          const language = languageOfLocale(
            context.activity.locale,
            environment.INSPECTION_BOT_DEFAULT_LOCALE,
          );
          await context
            .sendActivity(MessageFactory.text(await localizer.phrase(language, 'failed')))
            .catch((sendError: unknown) =>
              logger.warn({ err: sendError }, 'could not tell the user about the failure'),
            );
        };
        return adapter;
      },
    },
  ],
})
export class BotModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly readiness: ReadinessRegistry,
    @Inject(InspectionApiClient) private readonly api: InspectionApiClient,
    private readonly libraryConsole: LibraryConsole,
  ) {}

  onModuleDestroy(): void {
    this.libraryConsole.uninstall();
  }

  onModuleInit(): void {
    // Ready when inspection-api answers and the service account can sign in.
    this.readiness.register('inspection-api', async () => {
      await this.api.accessToken();
    });
  }
}
