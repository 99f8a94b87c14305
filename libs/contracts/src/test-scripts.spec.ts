import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The contracts have unit specs (the error catalogue, activity validation): a unit run that finds none has lost
 * them, so `test` and `test:unit` fail instead of passing with no tests.
 */
describe('@fieldops/contracts test scripts', () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it.each(['test', 'test:unit'])('%s fails when it finds no tests', (script) => {
    expect(manifest.scripts[script]).toMatch(/\bjest\b/);
    expect(manifest.scripts[script]).not.toContain('--passWithNoTests');
  });
});
