// The fault harness's long run (docs/operate/failover.md, "Fault harness"): infra/test/faults/faults.e2e-spec.ts on
// every Redis topology (one server, Sentinel, Cluster), the nemesis going for minutes/3 on each, then one line per
// topology and a total: faults injected, operations, acknowledged, unknown outcomes, violations.
// Usage: npm run build && npm run faults:long -w @fieldops/infra [-- <minutes, default 10>]
// (or node bench/faults/run.js [minutes]; FAULTS_TOPOLOGIES=single,sentinel,cluster picks the topologies).
// FAULTS_CLUSTER_BASE_PORT fixes the Cluster nodes' ports (6 from it, bus ports + 10000).
// Needs redis-server, redis-cli and nginx (Debian's). Exits 1 when any leg found a violation or failed; stops after
// the first failed leg.
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const minutes = Number(process.argv[2] ?? 10);
const topologies = (process.env.FAULTS_TOPOLOGIES ?? 'single,sentinel,cluster').split(',');
const infra = join(__dirname, '..', '..', 'infra');
const reports = join(infra, '.reports');
const secondsEach = Math.max(1, Math.round((minutes * 60) / topologies.length));

for (const topology of topologies) rmSync(join(reports, `faults-${topology}.json`), { force: true });
const started = Date.now();
// One Jest run per topology (leg): --forceExit ends it even if a failed leg left a socket open, a deadline kills a
// leg that hangs, and the run stops after the first failed leg (its report, if any, is still printed).
const legs = [];
for (const topology of topologies) {
  const jest = spawnSync(
    'npx',
    // The path first: --selectProjects takes every name after it.
    ['jest', '--runInBand', '--forceExit', 'test/faults/faults.e2e-spec.ts', '--selectProjects', 'e2e'],
    {
      cwd: infra,
      stdio: 'inherit',
      env: { ...process.env, FAULTS_TOPOLOGIES: topology, FAULTS_RUN_SECONDS: String(secondsEach) },
      timeout: (secondsEach * 3 + 900) * 1000,
      killSignal: 'SIGKILL',
    },
  );
  legs.push({ topology, status: jest.status, signal: jest.signal });
  if (jest.status !== 0) {
    console.error(
      `\nthe ${topology} leg failed (jest ${jest.signal ? `killed by ${jest.signal} at its deadline` : `exit ${jest.status}`}); the remaining legs are not run`,
    );
    break;
  }
}
const jest = { status: legs.every((leg) => leg.status === 0) ? 0 : 1 };

const rows = [];
for (const topology of topologies) {
  const path = join(reports, `faults-${topology}.json`);
  if (!existsSync(path)) {
    rows.push({ topology, missing: true, ran: legs.some((leg) => leg.topology === topology) });
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const faults = Object.values(report.faultsInjected).reduce((sum, count) => sum + count, 0);
  rows.push({
    topology,
    seconds: Math.round(report.durationMs / 1000),
    faults,
    faultKinds: Object.entries(report.faultsInjected)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', '),
    operations: report.counts.acknowledged + report.counts.unknownOutcomes,
    acknowledged: report.counts.acknowledged,
    unknown: report.counts.unknownOutcomes,
    unknownStored: report.counts.unknownOutcomesStored,
    delivered: report.counts.activitiesReceived,
    violations: report.violations.length,
    statuses: Object.entries(report.counts.statuses)
      .filter(([status]) => Number(status) >= 500)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', '),
  });
}

console.log(
  `\nfault harness long run: ${minutes} min over ${topologies.join(', ')} (${secondsEach} s of faults each);`,
);
console.log(`wall clock ${Math.round((Date.now() - started) / 1000)} s, jest exit ${jest.status}\n`);
console.log(
  '| topology | nemesis s | faults injected | operations | acknowledged | unknown (stored) | delivered | violations | 5xx |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const total = {
  faults: 0,
  operations: 0,
  acknowledged: 0,
  unknown: 0,
  unknownStored: 0,
  delivered: 0,
  violations: 0,
};
for (const row of rows) {
  if (row.missing) {
    const why = row.ran ? 'no report (the leg failed before the check)' : 'not run (an earlier leg failed)';
    console.log(`| ${row.topology} | ${why} | | | | | | | |`);
    continue;
  }
  for (const key of Object.keys(total)) total[key] += row[key];
  console.log(
    `| ${row.topology} | ${row.seconds} | ${row.faults} (${row.faultKinds}) | ${row.operations} | ${row.acknowledged} | ` +
      `${row.unknown} (${row.unknownStored}) | ${row.delivered} | ${row.violations} | ${row.statuses || 'none'} |`,
  );
}
console.log(
  `| total | | ${total.faults} | ${total.operations} | ${total.acknowledged} | ${total.unknown} (${total.unknownStored}) | ` +
    `${total.delivered} | ${total.violations} | |`,
);
process.exitCode = jest.status === 0 && rows.every((row) => !row.missing && row.violations === 0) ? 0 : 1;
