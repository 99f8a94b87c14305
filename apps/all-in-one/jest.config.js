// A real PostgreSQL for the tests: DATABASE_URL when set (CI), otherwise an embedded server.
module.exports = require('../../jest.preset.js').tiers({
  postgres: {
    setup: require.resolve('@fieldops/database/dist/testing/global-setup.js'),
    teardown: require.resolve('@fieldops/database/dist/testing/global-teardown.js'),
  },
});
