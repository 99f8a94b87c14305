// The nginx end-to-end test runs inspection-api, which needs a real PostgreSQL.
module.exports = require('../jest.preset.js').tiers({
  postgres: {
    setup: require.resolve('@fieldops/database/dist/testing/global-setup.js'),
    teardown: require.resolve('@fieldops/database/dist/testing/global-teardown.js'),
  },
});
