import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type RecordStatistics } from '../api/resources';
import { statusColours } from '../layout/console-theme';

const STATUSES = ['ok', 'warn', 'fail'] as const;

/** Records per day over the range, ok / warn / fail stacked (Recharts), with the same numbers as a table. */
export function TrendChart({ statistics }: { statistics: RecordStatistics }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const format = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const rows = statistics.results.map((row) => ({
    ...row,
    label: format.format(new Date(`${row.period}T00:00:00Z`)),
  }));
  const total = rows.reduce((sum, row) => sum + row.ok + row.warn + row.fail, 0);
  return (
    <Box>
      <Box
        sx={{ width: '100%', height: 260 }}
        role="img"
        aria-label={`${translate('console.label', { label: translate('console.today.trend') })}${STATUSES.map(
          (status) =>
            `${translate(`console.status.${status}`)} ${rows.reduce((sum, row) => sum + row[status], 0)}`,
        ).join(', ')}`}
        data-testid="trend-chart"
        data-total={total}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            data={rows}
            margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend itemSorter={(item) => STATUSES.indexOf(item.dataKey as (typeof STATUSES)[number])} />
            {STATUSES.map((status) => (
              <Bar
                key={status}
                dataKey={status}
                name={translate(`console.status.${status}`)}
                stackId="status"
                fill={statusColours[status]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </Box>
      <Box component="details" sx={{ mt: 1 }}>
        <Typography component="summary" variant="body2" sx={{ cursor: 'pointer', color: 'primary.main' }}>
          {translate('console.today.trend_table')}
        </Typography>
        <Table size="small" sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell component="th">{translate('console.today.day')}</TableCell>
              {STATUSES.map((status) => (
                <TableCell key={status} component="th" align="right">
                  {translate(`console.status.${status}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows
              .filter((row) => row.ok + row.warn + row.fail > 0)
              .map((row) => (
                <TableRow key={row.period}>
                  <TableCell>{row.period}</TableCell>
                  {STATUSES.map((status) => (
                    <TableCell key={status} align="right">
                      {row[status]}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
