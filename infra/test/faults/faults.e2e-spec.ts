import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalStack, NGINX_BINARY, REDIS_SERVER_BINARY, startLocalStack } from '../../src';
import { REPOSITORY_ROOT } from '../deployment-files';
import { type FaultKind, runFaults } from './support/fault-run';

/**
 * The fault harness (docs/operate/failover.md): stock DirectLineJS clients on two relays, a connector, a stock
 * botbuilder bot and Redis under Sentinel, every link behind a proxy, while a nemesis kills relays, promotes a lagging
 * replica and partitions a relay from the connector and everyone from the Redis primary; then the history is checked.
 * Under CI every fault runs once (a bounded run); `bench/faults/run.sh` runs it for longer (FAULTS_RUN_SECONDS).
 */
const RUN_SECONDS = Number(process.env.FAULTS_RUN_SECONDS ?? 0);
const FAULTS: FaultKind[] = [
  'kill-relay',
  'promote-lagging-replica',
  'partition-relay-connector',
  'partition-redis-primary',
];

if ((!NGINX_BINARY || !REDIS_SERVER_BINARY) && process.env.CI === 'true') {
  throw new Error('the fault harness needs nginx and redis-server (required under CI)');
}

(NGINX_BINARY && REDIS_SERVER_BINARY ? describe : describe.skip)(
  'fault harness: two relays, a connector, a bot and Redis under Sentinel, with a nemesis',
  () => {
    const workDirectory = mkdtempSync(join(tmpdir(), 'fieldops-faults-'));
    let stack: LocalStack;

    beforeAll(async () => {
      stack = await startLocalStack({
        repositoryRoot: REPOSITORY_ROOT,
        workDirectory,
        // No inspection-api: the chat path under test (relays, connector, bot, Redis) does not use PostgreSQL.
        relayInstances: 2,
        pinnedRelayEntrances: true,
        redisTopology: 'sentinel',
        proxiedLinks: true,
        extraEnvironment: {
          'relay-gateway': { RELAY_RATE_LIMIT_PER_TOKEN: '0', RELAY_RATE_LIMIT_PER_CONVERSATION: '0' },
        },
      });
    }, 180_000);

    afterAll(async () => {
      await stack?.stop();
      // FAULTS_KEEP_WORK_DIRECTORY=1 keeps the apps', nginx's and Redis's logs for a look after the run.
      if (process.env.FAULTS_KEEP_WORK_DIRECTORY === '1') console.log(`fault harness logs: ${workDirectory}`);
      else rmSync(workDirectory, { recursive: true, force: true });
    }, 60_000);

    it(
      'delivers every acknowledged activity exactly once, in order, to every client; no id lost or reused',
      async () => {
        const events: string[] = [];
        const report = await runFaults(stack, {
          durationMs: RUN_SECONDS * 1000,
          conversations: 3,
          faults: FAULTS,
          log: (line) => events.push(line),
        });
        const reports = join(__dirname, '..', '..', '.reports');
        mkdirSync(reports, { recursive: true });
        writeFileSync(join(reports, 'faults.json'), `${JSON.stringify({ ...report, events }, null, 2)}\n`);
        console.log(`fault harness: ${JSON.stringify({ ...report, violations: report.violations.length })}`);
        // The delivery invariants hold with no exception, and no entrance answered a 5xx other than 503.
        expect(report.violations).toEqual([]);
        expect(report.counts.acknowledged).toBeGreaterThan(report.counts.clients * 3);
        for (const fault of FAULTS) expect(report.faultsInjected[fault]).toBeGreaterThanOrEqual(1);
      },
      Math.max(RUN_SECONDS * 1000 * 2, 0) + 400_000,
    );
  },
);
