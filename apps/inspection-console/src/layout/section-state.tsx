import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

function errorText(error: unknown, translate: (key: string, options?: object) => string): string {
  const message = error instanceof Error ? error.message : JSON.stringify(error);
  return translate(message, { _: message });
}

/** Loading, error (with retry) and empty states of one part of a page. */
export function SectionState({
  isPending,
  error,
  retry,
  empty,
  emptyText,
  children,
}: {
  isPending: boolean;
  error: unknown;
  retry: () => void;
  empty?: boolean;
  emptyText?: ReactNode;
  children: ReactNode;
}) {
  const translate = useTranslate();
  if (isPending)
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 3 }} role="status">
        <CircularProgress size={20} aria-hidden />
        <Typography color="text.secondary">{translate('console.state.loading')}</Typography>
      </Box>
    );
  if (error)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={retry}>
            {translate('console.state.retry')}
          </Button>
        }
      >
        {translate('console.state.error', { message: errorText(error, translate) })}
      </Alert>
    );
  if (empty)
    return (
      <Typography color="text.secondary" sx={{ py: 2 }} role="status">
        {emptyText}
      </Typography>
    );
  return <>{children}</>;
}
