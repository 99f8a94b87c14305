// Shared Jest preset for every workspace (each package's jest.config.js spreads it).
// NestJS 12 ships ESM-only packages; Jest on Node 20 cannot require() them, so the
// swc transform down-levels them (and their ESM-only dependencies) to CommonJS.
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
];

module.exports = {
  testEnvironment: 'node',
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/**/*.int-spec.ts',
  ],
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)(?!.*/node_modules/)`],
  // The same transpile settings as the build (.swcrc), so tests run the code as it ships.
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { ...swcOptions, swcrc: false }] },
  testTimeout: 30000,
};
