#!/usr/bin/env node
// `npm audit --omit=dev`, judged against the allow-list kept in the repository (.ci/audit-allowlist.json):
// exits 1 when an advisory of severity high or critical affects a production dependency and is not on the list (each
// entry names the advisory URL and why it is accepted; docs/operate/security.md explains them). Moderate and
// low advisories are printed, not failed. When the registry's audit endpoint does not answer (this CI machine's
// registry mirror refuses the bulk-advisory POST with 405), it says so loudly and exits 0: CI cannot audit then, and
// the check runs wherever the endpoint answers. `--input <file>` judges a saved `npm audit --json` report instead,
// `--allowlist <file>` reads another allow-list (both for infra/test/ci-audit.int-spec.ts).
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const FAILING = new Set(['high', 'critical']);

function auditReport() {
  const input = process.argv.indexOf('--input');
  if (input >= 0) return readFileSync(process.argv[input + 1], 'utf8');
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8' });
  return run.stdout;
}

function allowList() {
  const option = process.argv.indexOf('--allowlist');
  const file = option >= 0 ? process.argv[option + 1] : join(root, '.ci', 'audit-allowlist.json');
  const entries = JSON.parse(readFileSync(file, 'utf8')).accepted;
  return new Map(entries.map((entry) => [entry.advisory, entry]));
}

let report;
try {
  report = JSON.parse(auditReport());
} catch {
  report = undefined;
}
if (!report || typeof report.vulnerabilities !== 'object' || report.vulnerabilities === null) {
  const reason = report?.message ?? report?.error?.summary ?? 'no JSON report';
  console.log(
    `npm audit: SKIPPED, the registry's audit endpoint did not answer (${reason}); no advisory was checked`,
  );
  process.exit(0);
}

const accepted = allowList();
const seen = new Set();
const failing = [];
const reported = [];
for (const vulnerability of Object.values(report.vulnerabilities)) {
  for (const via of vulnerability.via ?? []) {
    if (typeof via !== 'object' || seen.has(via.url)) continue;
    seen.add(via.url);
    const line = `${via.severity} ${via.name} ${via.range ?? ''}: ${via.title} (${via.url})`;
    if (FAILING.has(via.severity) && !accepted.has(via.url)) failing.push(line);
    else reported.push(accepted.has(via.url) ? `${line}, accepted: ${accepted.get(via.url).reason}` : line);
  }
}
for (const advisory of accepted.keys())
  if (!seen.has(advisory))
    console.log(`npm audit: ${advisory} is on the allow-list but no longer reported; remove it`);
for (const line of reported) console.log(`npm audit: ${line}`);
for (const line of failing) console.log(`npm audit: NOT ACCEPTED ${line}`);
const counts = report.metadata?.vulnerabilities ?? {};
console.log(
  `npm audit --omit=dev: ${seen.size} advisories (${['critical', 'high', 'moderate', 'low']
    .map((severity) => `${counts[severity] ?? 0} ${severity}`)
    .join(', ')} packages), ${failing.length} high or critical not accepted`,
);
process.exit(failing.length > 0 ? 1 : 0);
