// The environment the inspection benches start inspection-api's dist/main.js with (run.js, devices-cpu.js): one
// place for the settings both measure under, so their figures compare.
'use strict';

/**
 * @param {{ databaseUrl: string, poolSize: number, port: number, mediaRoot: string }} options
 * @returns {NodeJS.ProcessEnv}
 */
function inspectionApiEnvironment({ databaseUrl, poolSize, port, mediaRoot }) {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(poolSize),
    INSPECTION_API_PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INSPECTION_JWT_SIGNING_KEY: 'bench-signing-key-of-at-least-32-characters',
    INSPECTION_ADMIN_USERNAME: 'bench',
    INSPECTION_ADMIN_PASSWORD: 'bench',
    INSPECTION_MEDIA_ROOT: mediaRoot,
    // One token serves the whole run: a run at 100,000 records outlasts simplejwt's 5-minute access tokens.
    INSPECTION_ACCESS_TOKEN_LIFETIME_SECONDS: '86400',
  };
}

module.exports = { inspectionApiEnvironment };
