import { useEffect, useState } from 'react';
import { Login, LoginForm, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { Alert, Box, Button, Divider, Typography } from '@mui/material';
import {
  providerLoginHref,
  providerSignInError,
  type SignInOptions,
  signInOptions,
} from './provider-sign-in';

const PROVIDER_ERRORS = new Set([
  'access_denied',
  'account_conflict',
  'account_inactive',
  'invalid_username',
  'temporarily_unavailable',
  'expired',
]);

/**
 * react-admin's sign-in page with the console's name above it: "Sign in with <provider>" when inspection-api has an
 * OpenID Connect provider (it returns to the screen the person was on), and the password form unless the API has
 * turned passwords off.
 */
export function ConsoleLoginPage() {
  const translate = useTranslate();
  const location = useLocation();
  const [options, setOptions] = useState<SignInOptions | undefined>();
  useEffect(() => {
    void signInOptions().then(setOptions);
  }, []);
  const error = providerSignInError();
  const state = location.state as { nextPathname?: string; nextSearch?: string } | null;
  const route = `${state?.nextPathname ?? '/'}${state?.nextSearch ?? ''}`;
  const provider = options?.provider;
  return (
    <Login>
      <Typography component="h1" variant="h5" align="center" sx={{ mt: 1 }}>
        {translate('console.app_title')}
      </Typography>
      <Typography align="center" color="text.secondary" sx={{ px: 2 }}>
        {translate('console.auth.subtitle')}
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mx: 2, mt: 2 }} data-testid="provider-error">
          {translate(`console.auth.provider_error.${PROVIDER_ERRORS.has(error) ? error : 'other'}`)}
        </Alert>
      )}
      {provider && (
        <Box sx={{ px: 2, pt: 2 }}>
          <Button variant="contained" fullWidth href={providerLoginHref(provider.login_url, route)}>
            {translate('console.auth.sign_in_with', { name: provider.name })}
          </Button>
        </Box>
      )}
      {provider && options.local_passwords && (
        <Divider sx={{ mx: 2, mt: 2 }}>{translate('console.auth.or')}</Divider>
      )}
      {options?.local_passwords !== false && <LoginForm />}
    </Login>
  );
}
