import { Alert } from '@mui/material';
import { useSyncExternalStore } from 'react';
import { useTranslate } from 'react-admin';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser says it has a network connection, kept current by its `online` / `offline` events. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Says so while the browser is offline. Lists then show react-admin's "no connectivity" state; a save is held by
 * react-query (its mutations pause offline) and sent when the connection is back, so a form is not lost while the
 * tab stays open.
 */
export function OfflineBanner() {
  const online = useOnline();
  const translate = useTranslate();
  if (online) return null;
  return (
    <Alert severity="warning" role="status" data-testid="offline-banner" sx={{ mb: 1, borderRadius: 0 }}>
      {translate('console.state.offline')}
    </Alert>
  );
}
