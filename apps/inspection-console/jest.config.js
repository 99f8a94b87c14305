module.exports = {
  ...require('../../jest.preset.js'),
  // A real PostgreSQL for inspection-api in the browser test: DATABASE_URL when set (CI), otherwise an embedded server.
  globalSetup: require.resolve('@fieldops/database/dist/testing/global-setup.js'),
  globalTeardown: require.resolve('@fieldops/database/dist/testing/global-teardown.js'),
};
