import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's default theme with the status colours the whole console uses (contrast ≥ 4.5:1 on white). */
export const statusColours = {
  ok: '#1b7f3b',
  warn: '#a15c00',
  fail: '#c62828',
  due: '#1565c0',
  overdue: '#c62828',
  done: '#1b7f3b',
};

export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#1f5fa8' },
    secondary: { main: '#263a52' },
    error: { main: '#b3261e' },
  },
  sidebar: { width: 200, closedWidth: 56 },
};
