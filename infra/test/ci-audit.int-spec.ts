import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from './deployment-files';

/** `.ci/audit-production-dependencies.js` on a saved `npm audit --json` report and an allow-list of our choosing. */
function judge(report: unknown, accepted: Array<{ advisory: string; package: string; reason: string }> = []) {
  const directory = mkdtempSync(join(tmpdir(), 'ci-audit-'));
  writeFileSync(join(directory, 'report.json'), JSON.stringify(report));
  writeFileSync(join(directory, 'allowlist.json'), JSON.stringify({ accepted }));
  const run = spawnSync(
    process.execPath,
    [
      join(REPOSITORY_ROOT, '.ci/audit-production-dependencies.js'),
      '--input',
      join(directory, 'report.json'),
      '--allowlist',
      join(directory, 'allowlist.json'),
    ],
    { encoding: 'utf8' },
  );
  return { status: run.status, output: run.stdout };
}

const advisory = (name: string, severity: string, id: string) => ({
  source: 1,
  name,
  title: `${name} advisory`,
  url: `https://github.com/advisories/${id}`,
  severity,
  range: '<9',
});

const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    high: { name: 'high', severity: 'high', via: [advisory('high', 'high', 'GHSA-high')] },
    dependent: { name: 'dependent', severity: 'high', via: ['high'] },
    low: { name: 'low', severity: 'moderate', via: [advisory('low', 'moderate', 'GHSA-moderate')] },
  },
  metadata: { vulnerabilities: { info: 0, low: 0, moderate: 1, high: 2, critical: 0, total: 3 } },
};

describe('.ci/audit-production-dependencies.js (npm audit --omit=dev in CI)', () => {
  it('fails on a high or critical advisory that is not on the allow-list, naming it', () => {
    const { status, output } = judge(report);
    expect(status).toBe(1);
    expect(output).toContain(
      'NOT ACCEPTED high high <9: high advisory (https://github.com/advisories/GHSA-high)',
    );
    expect(output).not.toContain('NOT ACCEPTED moderate');
  });

  it('passes when the high advisory is accepted (with its reason), and reports moderate ones', () => {
    const { status, output } = judge(report, [
      { advisory: 'https://github.com/advisories/GHSA-high', package: 'high', reason: 'not reachable' },
    ]);
    expect(status).toBe(0);
    expect(output).toContain('accepted: not reachable');
    expect(output).toContain('moderate low <9');
  });

  it('passes a clean report and names a stale allow-list entry', () => {
    const clean = { auditReportVersion: 2, vulnerabilities: {}, metadata: { vulnerabilities: {} } };
    const { status, output } = judge(clean, [
      { advisory: 'https://github.com/advisories/GHSA-gone', package: 'gone', reason: 'fixed since' },
    ]);
    expect(status).toBe(0);
    expect(output).toContain('GHSA-gone is on the allow-list but no longer reported');
  });

  it('says loudly that nothing was checked when the audit endpoint does not answer, without failing CI', () => {
    const { status, output } = judge({
      message: '405 Method Not Allowed - POST …/advisories/bulk',
      statusCode: 405,
    });
    expect(status).toBe(0);
    expect(output).toContain('npm audit: SKIPPED');
    expect(output).toContain('405 Method Not Allowed');
  });
});
