import { ConfigurationError } from '@fieldops/platform';

/** The apps `npm start` can run, in start order (the relay delivers through the connector; the bot comes last). */
export const PLATFORM_APPS = [
  'inspection-api',
  'connector-gateway',
  'relay-gateway',
  'inspection-bot',
] as const;
export type PlatformApp = (typeof PLATFORM_APPS)[number];

const ALIASES: Record<string, PlatformApp> = {
  api: 'inspection-api',
  inspection: 'inspection-api',
  connector: 'connector-gateway',
  relay: 'relay-gateway',
  bot: 'inspection-bot',
};

/** What the inspection bot needs beside it: it gets its account from inspection-api and its URLs from the launcher. */
const BOT_NEEDS: readonly PlatformApp[] = ['inspection-api', 'connector-gateway', 'relay-gateway'];

/**
 * The apps to start: `--apps relay,connector` on the command line, else PLATFORM_APPS, else all of them. Names
 * are the apps' (`relay-gateway`) or short (`relay`, `connector`, `api`, `bot`). Throws naming what is wrong.
 */
export function selectApps(
  argv: readonly string[],
  platformApps: string | undefined,
): ReadonlySet<PlatformApp> {
  const flag = argv.findIndex((argument) => argument === '--apps' || argument.startsWith('--apps='));
  const source = flag >= 0 ? '--apps' : 'PLATFORM_APPS';
  const list =
    flag >= 0
      ? argv[flag]?.includes('=')
        ? argv[flag]?.slice('--apps='.length)
        : argv[flag + 1]
      : platformApps;
  if (list === undefined || list.trim() === '') {
    if (flag >= 0)
      throw new ConfigurationError('all-in-one', ['--apps: give a comma-separated list of apps']);
    return new Set(PLATFORM_APPS);
  }
  const problems: string[] = [];
  const chosen = new Set<PlatformApp>();
  for (const name of list.split(',').map((part) => part.trim().toLowerCase())) {
    const app = ALIASES[name] ?? PLATFORM_APPS.find((known) => known === name);
    if (app) chosen.add(app);
    else
      problems.push(
        `${source}: unknown app "${name}" (one of ${PLATFORM_APPS.join(', ')}, or ${Object.keys(ALIASES).join(', ')})`,
      );
  }
  if (chosen.has('inspection-bot')) {
    const missing = BOT_NEEDS.filter((app) => !chosen.has(app));
    if (missing.length > 0)
      problems.push(`${source}: inspection-bot runs only with ${missing.join(', ')} beside it`);
  }
  if (problems.length > 0) throw new ConfigurationError('all-in-one', problems);
  // Start order, whatever order they were named in.
  return new Set(PLATFORM_APPS.filter((app) => chosen.has(app)));
}
