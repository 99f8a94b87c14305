// The fault harness's long run (docs/operate/failover.md, "Fault harness"): infra/test/faults/faults.e2e-spec.ts on
// every Redis topology (one server, Sentinel, Cluster), the nemesis going for minutes/3 on each, then one line per
// topology and a total: faults injected, operations, acknowledged, unknown outcomes, violations.
// Usage: npm run build && npm run faults:long -w @fieldops/infra [-- <minutes, default 10>]
// (or node bench/faults/run.js [minutes]; FAULTS_TOPOLOGIES=single,sentinel,cluster picks the topologies).
// Needs redis-server, redis-cli and nginx (Debian's). Exits 1 when any run found a violation or failed.
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
const jest = spawnSync(
  'npx',
  // The path first: --selectProjects takes every name after it.
  ['jest', '--runInBand', 'test/faults/faults.e2e-spec.ts', '--selectProjects', 'e2e'],
  {
    cwd: infra,
    stdio: 'inherit',
    env: { ...process.env, FAULTS_TOPOLOGIES: topologies.join(','), FAULTS_RUN_SECONDS: String(secondsEach) },
  },
);

const rows = [];
for (const topology of topologies) {
  const path = join(reports, `faults-${topology}.json`);
  if (!existsSync(path)) {
    rows.push({ topology, missing: true });
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
    console.log(`| ${row.topology} | no report (the run failed before the check) | | | | | | | |`);
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
