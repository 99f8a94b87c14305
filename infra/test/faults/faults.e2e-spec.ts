import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LocalStack,
  NGINX_BINARY,
  REDIS_SERVER_BINARY,
  type RedisTopologyKind,
  startLocalStack,
} from '../../src';
import { REPOSITORY_ROOT } from '../deployment-files';
import { FAULTS_BY_TOPOLOGY, runFaults } from './support/fault-run';

/**
 * The fault harness (docs/operate/failover.md): stock DirectLineJS clients on two relays, a connector, a stock
 * botbuilder bot and Redis, the links the faults need behind proxies, while a nemesis injects each topology's faults
 * (FAULTS_BY_TOPOLOGY); then the history is checked. Under CI each fault runs once (a bounded run) on Sentinel and one
 * server; `npm run faults:long -w @fieldops/infra` (bench/faults/run.js) runs every topology for longer
 * (FAULTS_TOPOLOGIES, FAULTS_RUN_SECONDS per topology).
 */
const RUN_SECONDS = Number(process.env.FAULTS_RUN_SECONDS ?? 0);
/** The Cluster nodes' first port (6 ports and their bus ports + 10000); unset, a free block below 32768. */
const CLUSTER_BASE_PORT = process.env.FAULTS_CLUSTER_BASE_PORT
  ? Number(process.env.FAULTS_CLUSTER_BASE_PORT)
  : undefined;
const TOPOLOGIES = (process.env.FAULTS_TOPOLOGIES ?? 'sentinel,single')
  .split(',')
  .map((name) => name.trim()) as RedisTopologyKind[];
for (const topology of TOPOLOGIES) {
  if (!(topology in FAULTS_BY_TOPOLOGY)) throw new Error(`FAULTS_TOPOLOGIES: unknown topology ${topology}`);
}

if ((!NGINX_BINARY || !REDIS_SERVER_BINARY) && process.env.CI === 'true') {
  throw new Error('the fault harness needs nginx and redis-server (required under CI)');
}

describe.each(TOPOLOGIES)('fault harness on Redis %s', (topology) => {
  const faults = FAULTS_BY_TOPOLOGY[topology];
  (NGINX_BINARY && REDIS_SERVER_BINARY ? describe : describe.skip)(
    'two relays, a connector, a bot and Redis, with a nemesis',
    () => {
      const workDirectory = mkdtempSync(join(tmpdir(), `fieldops-faults-${topology}-`));
      let stack: LocalStack;

      beforeAll(async () => {
        stack = await startLocalStack({
          repositoryRoot: REPOSITORY_ROOT,
          workDirectory,
          // No inspection-api: the chat path under test (relays, connector, bot, Redis) does not use PostgreSQL.
          relayInstances: 2,
          pinnedRelayEntrances: true,
          redisTopology: topology,
          redisClusterBasePort: CLUSTER_BASE_PORT,
          proxiedLinks: true,
          extraEnvironment: {
            'relay-gateway': { RELAY_RATE_LIMIT_PER_TOKEN: '0', RELAY_RATE_LIMIT_PER_CONVERSATION: '0' },
          },
        });
      }, 180_000);

      afterAll(async () => {
        await stack?.stop();
        // FAULTS_KEEP_WORK_DIRECTORY=1 keeps the apps', nginx's and Redis's logs for a look after the run.
        if (process.env.FAULTS_KEEP_WORK_DIRECTORY === '1')
          console.log(`fault harness logs: ${workDirectory}`);
        else rmSync(workDirectory, { recursive: true, force: true });
      }, 60_000);

      it(
        `delivers every acknowledged activity exactly once, in order, to every client; no id lost or reused; no 5xx but 503 (${faults.join(', ')})`,
        async () => {
          const events: string[] = [];
          const report = await runFaults(stack, {
            durationMs: RUN_SECONDS * 1000,
            conversations: 3,
            faults,
            log: (line) => events.push(line),
          });
          const reports = join(__dirname, '..', '..', '.reports');
          mkdirSync(reports, { recursive: true });
          writeFileSync(
            join(reports, `faults-${topology}.json`),
            `${JSON.stringify({ topology, ...report, events }, null, 2)}\n`,
          );
          console.log(
            `fault harness (${topology}): ${JSON.stringify({ ...report, violations: report.violations.length })}`,
          );
          // The delivery invariants hold with no exception, and no entrance answered a 5xx other than 503.
          expect(report.violations).toEqual([]);
          expect(report.counts.acknowledged).toBeGreaterThan(report.counts.clients * 3);
          for (const fault of faults) expect(report.faultsInjected[fault]).toBeGreaterThanOrEqual(1);
        },
        Math.max(RUN_SECONDS * 1000 * 2, 0) + 400_000,
      );
    },
  );
});
