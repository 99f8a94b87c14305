import { Box, Card, CardContent, Link, List as MuiList, ListItem, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import {
  RecordContextProvider,
  ReferenceField,
  Show,
  TopToolbar,
  useGetList,
  useGetOne,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { assigneeText } from '../actions/action-assignee';
import { ActionStatusChip, OverdueChip } from '../actions/action-status-chip';
import { OpenActionButton } from '../actions/open-action-button';
import { AuditHistory } from '../audit/audit-history';
import { type CheckItem, type CheckRecord, type CorrectiveAction, type Device } from '../api/resources';
import { FactList } from '../layout/fact-list';
import { SectionState } from '../layout/section-state';
import { RecordStatusChips } from '../layout/status-chip';
import { PhotoThumbnail } from '../photos/photo-thumbnail';
import { DownloadReportButton } from '../reports/download-report-button';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The actions opened from a record, with "open an action". */
function RecordActions({ record, title }: { record: CheckRecord; title: string }) {
  const translate = useTranslate();
  const actions = useGetList<CorrectiveAction>('actions', {
    filter: { record: record.id },
    pagination: { page: 1, perPage: 50 },
    sort: { field: 'id', order: 'DESC' },
  });
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
          <Typography component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {translate('resources.actions.name', { smart_count: 2 })}
          </Typography>
          <OpenActionButton record={record} title={title} />
        </Box>
        <SectionState
          isPending={actions.isPending}
          error={actions.error}
          retry={() => void actions.refetch()}
          empty={actions.data?.length === 0}
          emptyText={translate('console.actions.none_for_record')}
        >
          <MuiList dense disablePadding data-testid="record-actions">
            {actions.data?.map((action) => (
              <ListItem key={action.id} disableGutters sx={{ gap: 1, flexWrap: 'wrap' }}>
                <ActionStatusChip status={action.status} />
                {action.overdue && <OverdueChip />}
                <Link component={RouterLink} to={`/actions/${action.id}/show`} underline="hover">
                  {action.title}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {assigneeText(action, translate)}
                  {action.due_date && ` · ${translate('console.actions.due_on', { date: action.due_date })}`}
                </Typography>
              </ListItem>
            ))}
          </MuiList>
        </SectionState>
      </CardContent>
    </Card>
  );
}

function RecordDetails() {
  const translate = useTranslate();
  const record = useRecordContext<CheckRecord>();
  const device = useGetOne<Device>('devices', { id: record?.device ?? 0 }, { enabled: !!record });
  const item = useGetOne<CheckItem>('items', { id: record?.item ?? 0 }, { enabled: !!record?.item });
  if (!record) return null;
  const field = (name: string) => translate(`resources.records.fields.${name}`);
  const deviceText = device.data ? `${device.data.code} · ${device.data.name}` : `#${record.device}`;
  const itemText = record.item === null ? '' : (item.data?.name ?? `#${record.item}`);
  const heading = [deviceText, itemText].filter(Boolean).join(' — ');
  const actionTitle = `${translate('console.label', { label: translate(`console.status.${record.status}`) })}${[
    device.data?.code ?? deviceText,
    itemText,
  ]
    .filter(Boolean)
    .join(' — ')}${record.value ? ` (${record.value})` : ''}`;
  return (
    <Box sx={{ p: { xs: 2, sm: 3 } }} data-testid="record-page">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
        <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
          {heading}
        </Typography>
        <RecordStatusChips status={record.status} outOfRange={record.out_of_range} />
      </Box>
      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <Box sx={{ flex: '1 1 320px', minWidth: 0 }}>
          <FactList
            facts={[
              [
                field('device'),
                <RecordContextProvider value={record} key="device">
                  <ReferenceField source="device" reference="devices" link="edit" />
                </RecordContextProvider>,
              ],
              [field('item'), itemText || '—'],
              [field('status'), translate(`console.status.${record.status}`)],
              [
                field('value'),
                `${record.value || '—'}${record.out_of_range ? ` (${translate('console.records.out_of_range')})` : ''}`,
              ],
              [field('note'), record.note || '—'],
              [field('checked_by'), record.checked_by || '—'],
              [field('checked_at'), dateTime.format(new Date(record.checked_at))],
              [
                field('plan'),
                record.plan === null ? (
                  '—'
                ) : (
                  <RecordContextProvider value={record} key="plan">
                    <ReferenceField source="plan" reference="plans" link="edit" />
                  </RecordContextProvider>
                ),
              ],
            ]}
          />
        </Box>
        {record.photo && (
          <Box>
            <Typography color="text.secondary" sx={{ mb: 0.5 }}>
              {field('photo')}
            </Typography>
            <PhotoThumbnail record={record} size={200} />
          </Box>
        )}
      </Box>
      <RecordActions record={record} title={actionTitle} />
      <AuditHistory resource="record" id={record.id} />
    </Box>
  );
}

function RecordTitle() {
  const translate = useTranslate();
  const record = useRecordContext<CheckRecord>();
  return <span>{translate('console.records.title', { id: record?.id ?? '' })}</span>;
}

/** A check record: what was checked, by whom and when, its photo, and the actions opened from it. */
export function RecordShow() {
  return (
    <Show
      title={<RecordTitle />}
      actions={
        <TopToolbar>
          <DownloadReportButton kind="records" />
        </TopToolbar>
      }
    >
      <RecordDetails />
    </Show>
  );
}
