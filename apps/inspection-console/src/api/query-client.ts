import { QueryClient } from '@tanstack/react-query';

/**
 * The console's react-query client. react-admin's authentication queries (`['auth', …]`: sign-in state, permissions,
 * identity) read this tab's storage and run even when the browser says it is offline; in react-query's default mode
 * they would pause like every query, and each page opened offline would stay on a full-page "Loading". Data queries
 * keep the default: offline they pause and a list shows react-admin's "no connectivity" state, then refetch when the
 * connection is back; a save made offline is held and sent then.
 */
export function consoleQueryClient(): QueryClient {
  const client = new QueryClient();
  client.setQueryDefaults(['auth'], { networkMode: 'always' });
  return client;
}
