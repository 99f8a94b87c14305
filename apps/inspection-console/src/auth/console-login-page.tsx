import { Login, LoginForm, useTranslate } from 'react-admin';
import { Typography } from '@mui/material';

/** react-admin's sign-in page with the console's name above the form. */
export function ConsoleLoginPage() {
  const translate = useTranslate();
  return (
    <Login>
      <Typography component="h1" variant="h5" align="center" sx={{ mt: 1 }}>
        {translate('console.app_title')}
      </Typography>
      <Typography align="center" color="text.secondary" sx={{ px: 2 }}>
        {translate('console.auth.subtitle')}
      </Typography>
      <LoginForm />
    </Login>
  );
}
