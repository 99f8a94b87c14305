// Shared Jest configuration for every workspace: each package's jest.config.js calls `tiers()`.
// NestJS 12 ships ESM-only packages; Jest on Node 20 cannot require() them, so the
// swc transform down-levels them (and their ESM-only dependencies) to CommonJS.
//
// Tests run by tier, and a file's suffix says its tier (DEVELOPMENT.md, "Test tiers"):
//   unit     src/**/*.spec.ts                       needs nothing: no PostgreSQL, no Redis, no browser
//   int      src|test/**/*.int-spec.ts              PostgreSQL and/or Redis
//   e2e      test/**/*.e2e-spec.ts                  the apps over real HTTP/WebSocket, with PostgreSQL and Redis
//   browser  test/**/*.browser.e2e-spec.ts          Chromium through playwright-core, with the services
// Each tier is a Jest project (`jest --selectProjects unit`); plain `jest` runs them all.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const { $schema, ...swcOptions } = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));

const esmOnly = [
  '@nestjs',
  'cookie',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'load-esm',
  // jwks-rsa's (the Agents SDK's JWT middleware) JOSE implementation.
  'jose',
  // connector-gateway's OpenID Connect relying party (the user-token service).
  'openid-client',
  'oauth4webapi',
];

const base = {
  testEnvironment: 'node',
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)(?!.*/node_modules/)`],
  // The same transpile settings as the build (.swcrc), so tests run the code as it ships.
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { ...swcOptions, swcrc: false }] },
  testTimeout: 30000,
};

const TIERS = {
  unit: { testMatch: ['<rootDir>/src/**/*.spec.ts'] },
  int: { testMatch: ['<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/**/*.int-spec.ts'] },
  e2e: {
    testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', '\\.browser\\.e2e-spec\\.ts$'],
  },
  browser: {
    testMatch: ['<rootDir>/test/**/*.browser.e2e-spec.ts'],
    setupFilesAfterEnv: [join(__dirname, 'jest.browser-retries.js')],
  },
};

/**
 * A package's Jest configuration: one project per tier. The tiers other than `unit` get the services' global
 * setup (`jest.services.js`: Redis, and PostgreSQL when `postgres` names the package's database global setup and
 * teardown).
 */
function tiers({ postgres } = {}) {
  return {
    // A global option: Jest ignores testTimeout inside a project's configuration.
    testTimeout: base.testTimeout,
    reporters: ['default', require.resolve('./jest.no-skips-reporter.js')],
    projects: Object.entries(TIERS).map(([tier, options]) => ({
      ...base,
      displayName: tier,
      ...options,
      ...(tier === 'unit'
        ? {}
        : {
            globalSetup: require.resolve('./jest.services.js'),
            globalTeardown: require.resolve('./jest.services-teardown.js'),
            globals: { fieldopsPostgres: postgres ?? null },
          }),
    })),
  };
}

module.exports = { tiers, TIERS, base };
