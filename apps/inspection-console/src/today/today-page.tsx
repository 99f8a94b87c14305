import {
  Box,
  Card,
  CardContent,
  LinearProgress,
  Link,
  List as MuiList,
  ListItem,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { RecordContextProvider, ReferenceField, Title, useLocaleState, useTranslate } from 'react-admin';
import { type DueCounts } from '../api/resources';
import { statusColours } from '../layout/console-theme';
import { SectionState } from '../layout/section-state';
import { StatusChip } from '../layout/status-chip';
import { PhotoThumbnail } from '../photos/photo-thumbnail';
import { RecordPhotoGallery } from '../photos/record-photo-gallery';
import { useLatestFindings, useOpenChecks, useTodaySummary, useTrend } from './today-queries';
import { InspectorLoad } from './inspector-load';
import { TrendChart } from './trend-chart';

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Card component="section" aria-label={title}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography component="h2" variant="h6">
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

function CountCard({
  status,
  value,
  hint,
}: {
  status: keyof DueCounts;
  value: number | undefined;
  hint: string;
}) {
  const translate = useTranslate();
  return (
    <Card sx={{ flex: 1, borderTop: 4, borderColor: statusColours[status] }} data-testid={`count-${status}`}>
      <CardContent>
        <Typography component="h2" variant="subtitle1" color="text.secondary">
          {translate(`console.status.${status}`)}
        </Typography>
        <Typography variant="h3" component="p" sx={{ fontWeight: 600 }} data-testid={`count-${status}-value`}>
          {value ?? '–'}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </CardContent>
    </Card>
  );
}

/**
 * Today: what is due and overdue, completion per plan, each person's load, the 30-day trend and the latest findings.
 */
export function TodayPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const summary = useTodaySummary();
  const trend = useTrend();
  const open = useOpenChecks();
  const findings = useLatestFindings();
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const plans = summary.data?.plans.filter((plan) => plan.total > 0) ?? [];
  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="today-page">
      <Title title={translate('console.today.title')} />
      {summary.data && (
        <Typography color="text.secondary" sx={{ mb: 1 }} data-testid="today-date">
          {translate('console.today.as_of', { date: summary.data.date, time_zone: summary.data.time_zone })}
        </Typography>
      )}
      <SectionState isPending={summary.isPending} error={summary.error} retry={() => void summary.refetch()}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <CountCard status="due" value={summary.data?.due} hint={translate('console.today.due_hint')} />
          <CountCard
            status="overdue"
            value={summary.data?.overdue}
            hint={translate('console.today.overdue_hint')}
          />
          <CountCard status="done" value={summary.data?.done} hint={translate('console.today.done_hint')} />
        </Stack>
      </SectionState>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          alignItems: 'start',
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <Section title={translate('console.today.completion')}>
          <SectionState
            isPending={summary.isPending}
            error={summary.error}
            retry={() => void summary.refetch()}
            empty={plans.length === 0}
            emptyText={translate('console.today.no_plans')}
          >
            <Stack spacing={2} data-testid="plan-completion">
              {plans.map((plan) => {
                const percent = Math.round((plan.done / plan.total) * 100);
                return (
                  <Box key={plan.id}>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
                      <Link component={RouterLink} to={`/plans/${plan.id}`} underline="hover">
                        {plan.name}
                      </Link>
                      <Typography variant="body2" color="text.secondary">
                        {translate('console.today.completion_of', plan)}
                        {plan.overdue > 0 && ` · ${translate('console.status.overdue')} ${plan.overdue}`}
                      </Typography>
                    </Box>
                    <LinearProgress
                      variant="determinate"
                      value={percent}
                      aria-label={translate('console.today.completion_label', { plan: plan.name, percent })}
                      sx={{ height: 10, borderRadius: 5, mt: 0.5 }}
                    />
                  </Box>
                );
              })}
            </Stack>
          </SectionState>
        </Section>
        <Section title={translate('console.today.load')}>
          <SectionState
            isPending={summary.isPending}
            error={summary.error}
            retry={() => void summary.refetch()}
            empty={summary.data?.assignees.length === 0}
            emptyText={translate('console.today.no_load')}
          >
            <InspectorLoad people={summary.data?.assignees ?? []} />
          </SectionState>
        </Section>
        <Section title={translate('console.today.trend')}>
          <SectionState isPending={trend.isPending} error={trend.error} retry={() => void trend.refetch()}>
            {trend.data && <TrendChart statistics={trend.data} />}
          </SectionState>
        </Section>
        <Section title={translate('console.today.due_list')}>
          <SectionState
            isPending={open.isPending}
            error={open.error}
            retry={() => void open.refetch()}
            empty={open.data?.rows.length === 0}
            emptyText={translate('console.today.no_open_checks')}
          >
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="open-checks">
                <TableHead>
                  <TableRow>
                    <TableCell component="th">{translate('resources.records.fields.device')}</TableCell>
                    <TableCell component="th">{translate('resources.records.fields.item')}</TableCell>
                    <TableCell component="th">{translate('resources.records.fields.plan')}</TableCell>
                    <TableCell component="th">{translate('resources.records.fields.status')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {open.data?.rows.map((row) => (
                    <TableRow key={`${row.status}-${row.id}`}>
                      <TableCell>
                        {row.device.code} · {row.device.name}
                      </TableCell>
                      <TableCell>{row.item?.name ?? '—'}</TableCell>
                      <TableCell>{row.plan.name}</TableCell>
                      <TableCell>
                        <StatusChip status={row.status} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </SectionState>
        </Section>
        <Section
          title={translate('console.today.latest')}
          action={
            <Link component={RouterLink} to="/records" underline="hover" variant="body2">
              {translate('console.today.all_records')}
            </Link>
          }
        >
          <SectionState
            isPending={findings.isPending}
            error={findings.error}
            retry={() => void findings.refetch()}
            empty={findings.data?.length === 0}
            emptyText={translate('console.today.no_findings')}
          >
            <RecordPhotoGallery records={findings.data ?? []}>
              <MuiList dense disablePadding data-testid="latest-findings">
                {findings.data?.map((record) => (
                  <ListItem key={record.id} disableGutters sx={{ gap: 1.5 }}>
                    <StatusChip status={record.status} />
                    <ListItemText
                      primary={
                        <RecordContextProvider value={record}>
                          <ReferenceField source="device" reference="devices" link="edit" />
                          {record.item !== null && ' · '}
                          <ReferenceField source="item" reference="items" link={false} emptyText="" />
                        </RecordContextProvider>
                      }
                      secondary={
                        <>
                          <span>{[record.value, record.note].filter(Boolean).join(' · ')}</span>
                          <br />
                          {`${dateTime.format(new Date(record.checked_at))} · ${record.checked_by || '—'}`}
                        </>
                      }
                    />
                    <PhotoThumbnail record={record} />
                  </ListItem>
                ))}
              </MuiList>
            </RecordPhotoGallery>
          </SectionState>
        </Section>
      </Box>
    </Box>
  );
}
