// Global teardown matching jest.services.js: the package's database teardown, then the redis-server it started.
const state = (globalThis.__fieldopsTestServices ??= {});

module.exports = async function servicesTeardown(globalConfig, projectConfig) {
  const postgres = projectConfig.globals?.fieldopsPostgres;
  if (postgres) {
    const teardown = require(postgres.teardown.replace('<rootDir>', projectConfig.rootDir));
    await (teardown.default ?? teardown)(globalConfig, projectConfig);
  }
  if (state.redis) {
    const child = state.redis;
    state.redis = undefined;
    if (process.env.REDIS_URL === state.redisUrl) delete process.env.REDIS_URL;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
};
