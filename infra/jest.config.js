module.exports = {
  ...require('../jest.preset.js'),
  // The nginx end-to-end test runs inspection-api, which needs a real PostgreSQL.
  globalSetup: require.resolve('@fieldops/database/dist/testing/global-setup.js'),
  globalTeardown: require.resolve('@fieldops/database/dist/testing/global-teardown.js'),
};
