import { takeTestServer } from './test-server-state';

/** Jest globalTeardown matching global-setup: stops the embedded server (and deletes its data), if any. */
export default async function globalTeardown(): Promise<void> {
  const server = takeTestServer();
  if (!server) return;
  if (process.env.DATABASE_URL === server.url) delete process.env.DATABASE_URL;
  await server.stop();
}
