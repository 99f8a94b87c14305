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
  components: {
    ...defaultTheme.components,
    // Wide tables scroll inside their card rather than widening the page (768 px tablets).
    RaLayout: { styleOverrides: { root: { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } } },
    RaList: {
      styleOverrides: {
        root: { minWidth: 0, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } },
      },
    },
    RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-headerCell': { whiteSpace: 'nowrap' } } } },
    // A spinner is decoration beside words that say what is under way (the disabled Save button while a save is held
    // offline or sent, "Loading…"); without a name, axe counts each one as a serious violation.
    MuiCircularProgress: { defaultProps: { 'aria-hidden': true } },
  },
};
