import 'reflect-metadata';
import { createLogger, loadEnvironment, runUntilSignalled } from '@fieldops/platform';
import { AllInOneEnvironment, checkMetricsPort } from './all-in-one.environment';
import { startInProcessPlatform } from './in-process-platform';
import { selectApps } from './app-selection';
import { startSeparateProcesses } from './separate-processes-platform';

const DESCRIPTIONS: Record<string, string> = {
  'inspection-api': 'inspection API under /api, supervisor console under /console/',
  'relay-gateway': 'Direct Line under /v3/directline and /v3/relay',
  'connector-gateway': 'Bot Connector and token authority',
  'inspection-bot': 'the inspection bot (/api/messages) and its chat page',
};

runUntilSignalled(async () => {
  const environment = loadEnvironment(AllInOneEnvironment, process.env, 'all-in-one');
  const logger = createLogger({ service: 'all-in-one', level: environment.LOG_LEVEL });

  const apps = selectApps(process.argv.slice(2), environment.PLATFORM_APPS);
  checkMetricsPort(environment, apps);

  if (environment.REDIS_URL && (environment.DATABASE_URL || !apps.has('inspection-api'))) {
    logger.info(
      { apps: [...apps] },
      'REDIS_URL (and DATABASE_URL, if inspection-api runs) are set: each app runs as its own process',
    );
    const running = startSeparateProcesses(process.env, logger, apps);
    running.exited.then(
      () => process.exit(),
      () => process.exit(1),
    );
    return { logger, running };
  }

  const running = await startInProcessPlatform(process.env, logger, apps);
  const mode = [running.database, environment.REDIS_URL ? 'Redis bus from REDIS_URL' : 'in-process bus']
    .filter(Boolean)
    .join(', ');
  const lines = running.services.map(
    (service) =>
      `  ${service.service.padEnd(18)} ${service.url.padEnd(24)} ${DESCRIPTIONS[service.service] ?? ''}`,
  );
  const chat = running.chatPageUrl
    ? `\nOpen the chat page to hold an inspection: ${running.chatPageUrl}/` +
      (running.inspector
        ? ` (sign in as ${running.inspector.username}; password ${
            running.inspector.passwordFile
              ? `in ${running.inspector.passwordFile}`
              : 'from DEMO_INSPECTOR_PASSWORD'
          })`
        : '') +
      '\n' +
      (running.chatChannel
        ? 'Alerts and reminders reach the chat too: a failed check shows in a supervisor’s chat as a card.\n'
        : '')
    : '';
  const supervisorConsole = running.console
    ? `Open the supervisor console: ${running.console.url}` +
      ` (sign in as ${running.console.supervisor.username}, password ${running.console.supervisor.password})\n`
    : '';
  process.stdout.write(
    `\nThe platform is running (${mode}):\n${lines.join('\n')}\n${chat}${supervisorConsole}Health: /healthz, /readyz; metrics: /metrics. Press Ctrl-C to stop.\n\n`,
  );
  return { logger, running };
});
