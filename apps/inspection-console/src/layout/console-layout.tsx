import {
  Box,
  Button,
  Card,
  CardContent,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Typography,
} from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import NotificationsIcon from '@mui/icons-material/NotificationsNone';
import { type ReactNode, useEffect } from 'react';
import {
  AppBar,
  Layout,
  Loading,
  Logout,
  TitlePortal,
  useGetIdentity,
  useLocaleState,
  useLogout,
  usePermissions,
  useSidebarState,
  useTranslate,
  UserMenu,
  useUserMenu,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ConsoleLocalesButton } from './locale-button';
import { OfflineBanner } from './offline-banner';

/** The "supervisors only" page an inspector sees after signing in. */
export function SupervisorsOnly() {
  const translate = useTranslate();
  const logout = useLogout();
  const { identity } = useGetIdentity();
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'grey.100' }}
    >
      <Card sx={{ maxWidth: 520 }} data-testid="supervisors-only">
        <CardContent sx={{ p: 4 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
            <LockIcon color="primary" aria-hidden />
            <Typography component="h1" variant="h5">
              {translate('console.supervisors_only.title')}
            </Typography>
          </Box>
          <Typography sx={{ mb: 1.5 }}>
            {translate('console.supervisors_only.body', { username: identity?.fullName ?? '' })}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate('console.supervisors_only.hint')}
          </Typography>
          <Button variant="contained" onClick={() => void logout()}>
            {translate('console.supervisors_only.sign_out')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}

/** react-admin's user menu, named by the signed-in user (its visible text), as WCAG's label-in-name asks. */
function ConsoleUserMenu() {
  const { identity } = useGetIdentity();
  return (
    <UserMenu label={identity?.fullName ? String(identity.fullName) : 'ra.auth.user_menu'}>
      <MyNotificationsMenuItem />
      <Logout />
    </UserMenu>
  );
}

/** The user menu's way to the signed-in person's notification preferences. */
function MyNotificationsMenuItem() {
  const translate = useTranslate();
  const { onClose } = useUserMenu() ?? {};
  return (
    <MenuItem component={RouterLink} to="/notifications" onClick={onClose}>
      <ListItemIcon>
        <NotificationsIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('console.notifications.menu')}</ListItemText>
    </MenuItem>
  );
}

function ConsoleAppBar() {
  return (
    <AppBar toolbar={<ConsoleLocalesButton />} userMenu={<ConsoleUserMenu />}>
      <TitlePortal variant="h6" component="h1" />
    </AppBar>
  );
}

/** Keeps `<html lang>` in step with the chosen language (screen readers, axe's html-has-lang). */
function useDocumentLanguage(): void {
  const [locale] = useLocaleState();
  useEffect(() => {
    document.documentElement.lang = locale === 'zh-CN' ? 'zh-CN' : 'en';
  }, [locale]);
}

/** On tablets (narrower than 1024 px) the menu starts folded to its icons, leaving the width to the tables. */
function useFoldedMenuOnTablets(): void {
  const [, setOpen] = useSidebarState();
  useEffect(() => {
    if (window.matchMedia('(min-width: 600px) and (max-width: 1023px)').matches) setOpen(false);
  }, [setOpen]);
}

/** react-admin's layout for supervisors; inspectors get the "supervisors only" page instead of every screen. */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  useDocumentLanguage();
  useFoldedMenuOnTablets();
  const { permissions, isPending } = usePermissions<string>();
  if (isPending) return <Loading />;
  if (permissions !== 'supervisor') return <SupervisorsOnly />;
  return (
    <Layout appBar={ConsoleAppBar}>
      <OfflineBanner />
      {children}
    </Layout>
  );
}
