import KeyIcon from '@mui/icons-material/Key';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { HttpError, useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type ConsoleUser } from '../api/resources';

/** Sets a new password for the user (`POST /api/users/{id}/set_password/`), in a dialog. */
export function ResetPasswordButton() {
  const user = useRecordContext<ConsoleUser>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const close = () => {
    setOpen(false);
    setPassword('');
    setError(null);
  };
  const submit = async () => {
    setBusy(true);
    try {
      await dataProvider.setPassword(user.id, password);
      notify('console.users.password_changed', { type: 'success' });
      close();
    } catch (failure) {
      const errors =
        failure instanceof HttpError
          ? (failure.body as { errors?: { password?: string } })?.errors
          : undefined;
      setError(errors?.password ?? (failure instanceof Error ? failure.message : String(failure)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button startIcon={<KeyIcon />} onClick={() => setOpen(true)}>
        {translate('console.users.reset_password')}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="reset-password-title">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <DialogTitle id="reset-password-title">
            {translate('console.label', { label: translate('console.users.reset_password') })}
            {user.username}
          </DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              margin="dense"
              type="password"
              autoComplete="new-password"
              label={translate('console.users.new_password')}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={Boolean(error)}
              helperText={error ?? translate('console.users.password_help')}
              required
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={busy || !password}>
              {translate('ra.action.save')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
