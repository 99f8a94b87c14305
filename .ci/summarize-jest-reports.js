#!/usr/bin/env node
// Totals the Jest JSON reports (each workspace writes .reports/jest.json) into one closing line:
// "N passed, N failed, N skipped". Exits 1 when a report is missing or anything failed.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const workspaces = [
  ...['libs', 'apps'].flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`)),
  'infra',
  'docs',
].filter((workspace) => existsSync(join(root, workspace, 'package.json')));

const totals = { passed: 0, failed: 0, skipped: 0, suitesFailed: 0 };
const rows = [];
let missing = false;
for (const workspace of workspaces) {
  const report = join(root, workspace, '.reports', 'jest.json');
  if (!existsSync(report)) {
    rows.push(`${workspace}: no report`);
    missing = true;
    continue;
  }
  const result = JSON.parse(readFileSync(report, 'utf8'));
  totals.passed += result.numPassedTests;
  totals.failed += result.numFailedTests;
  totals.skipped += result.numPendingTests + result.numTodoTests;
  totals.suitesFailed += result.numFailedTestSuites;
  rows.push(
    `${workspace}: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests} skipped`,
  );
}
const line = `${totals.passed} passed, ${totals.failed + totals.suitesFailed} failed, ${totals.skipped} skipped`;
if (process.argv.includes('--line')) {
  console.log(line);
} else {
  console.log(rows.join('\n'));
  console.log(`total: ${line}`);
}
process.exit(missing || totals.failed > 0 || totals.suitesFailed > 0 ? 1 : 0);
