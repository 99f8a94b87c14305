import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PauseIcon from '@mui/icons-material/PauseCircleOutline';
import PlayIcon from '@mui/icons-material/PlayCircleOutline';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  BooleanInput,
  CheckboxGroupInput,
  Create,
  Datagrid,
  DateField,
  DeleteWithConfirmButton,
  Edit,
  FunctionField,
  SaveButton,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  maxLength,
  minLength,
  required,
  useDataProvider,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type DeliveryStatus, EVENT_TYPES, type Webhook, type WebhookDelivery } from '../api/resources';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';
import { SectionState } from '../layout/section-state';

const STATE_COLOURS = { active: '#1b7f3b', failing: '#a15c00', disabled: '#c62828', off: '#5f6368' };
const DELIVERY_COLOURS: Record<DeliveryStatus, string> = {
  pending: '#a15c00',
  delivered: '#1b7f3b',
  failed: '#c62828',
  cancelled: '#5f6368',
};

function webhookState(webhook: Webhook): keyof typeof STATE_COLOURS {
  if (webhook.active) return webhook.failing_since ? 'failing' : 'active';
  return webhook.disabled_reason ? 'disabled' : 'off';
}

/** Active, failing, disabled (after a day of failures) or switched off, in words and colour. */
function WebhookStateChip({ webhook }: { webhook: Webhook }) {
  const translate = useTranslate();
  const state = webhookState(webhook);
  return (
    <Chip
      size="small"
      label={translate(`console.webhooks.state.${state}`)}
      sx={{ bgcolor: STATE_COLOURS[state], color: '#fff', fontWeight: 600 }}
    />
  );
}

function useEventLabel() {
  const translate = useTranslate();
  return (type: string) => translate(`console.events.${type}`, { _: type });
}

function EventsText({ webhook }: { webhook: Webhook }) {
  const eventLabel = useEventLabel();
  return <>{webhook.events.map(eventLabel).join(', ')}</>;
}

function WebhookCards() {
  return (
    <CardList<Webhook> link="edit">
      {(webhook) => (
        <>
          <CardTitle end={<WebhookStateChip webhook={webhook} />}>{webhook.url}</CardTitle>
          <CardLine>
            <EventsText webhook={webhook} />
          </CardLine>
        </>
      )}
    </CardList>
  );
}

/** The webhook endpoints: URL, events, state; cards on phones. */
export function WebhookList() {
  return (
    <ResponsiveList cards={<WebhookCards />}>
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="url" sortable={false} sx={{ overflowWrap: 'anywhere' }} />
        <FunctionField<Webhook>
          source="events"
          sortable={false}
          render={(webhook) => <EventsText webhook={webhook} />}
        />
        <FunctionField<Webhook>
          source="active"
          sortable={false}
          render={(webhook) => <WebhookStateChip webhook={webhook} />}
        />
        <DateField source="created_at" sortable={false} />
        <TextField source="created_by" sortable={false} />
      </Datagrid>
    </ResponsiveList>
  );
}

function WebhookInputs() {
  const translate = useTranslate();
  const eventLabel = useEventLabel();
  const choices = useMemo(() => EVENT_TYPES.map((id) => ({ id, name: eventLabel(id) })), [eventLabel]);
  return (
    <>
      <TextInput
        source="url"
        type="url"
        validate={[required(), maxLength(2000)]}
        helperText={translate('console.webhooks.url_help')}
        sx={{ maxWidth: 720 }}
        fullWidth
      />
      <CheckboxGroupInput
        source="events"
        choices={choices}
        validate={[required(), minLength(1)]}
        helperText={translate('console.webhooks.events_help')}
        sx={{
          '& .MuiFormGroup-root': { display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } },
        }}
      />
      <BooleanInput source="active" helperText={translate('console.webhooks.active_help')} />
    </>
  );
}

/** The secret of a new endpoint, shown this once, with a copy button. */
function SecretDialog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhook?.secret ?? '');
      notify('console.webhooks.secret_copied', { type: 'info' });
    } catch {
      notify('console.webhooks.secret_copy_failed', { type: 'warning' });
    }
  };
  return (
    <Dialog open={Boolean(webhook)} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="secret-title">
      <DialogTitle id="secret-title">{translate('console.webhooks.secret_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('console.webhooks.secret_body')}</DialogContentText>
        <MuiTextField
          label={translate('console.webhooks.secret')}
          value={webhook?.secret ?? ''}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-secret' } }}
          onFocus={(event) => event.target.select()}
        />
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {translate('console.webhooks.copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {translate('console.webhooks.secret_done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Adds an endpoint; its signing secret is made by the API and shown once, then its page opens. */
export function WebhookCreate() {
  const redirect = useRedirect();
  const [created, setCreated] = useState<Webhook | null>(null);
  return (
    <>
      <Create<Webhook>
        mutationOptions={{ onSuccess: (webhook: Webhook) => setCreated(webhook) }}
        transform={({ url, events, active }: Webhook) => ({ url, events, active })}
      >
        <SimpleForm defaultValues={{ active: true, events: ['record.failed'] }}>
          <WebhookInputs />
        </SimpleForm>
      </Create>
      <SecretDialog
        webhook={created}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id !== undefined) redirect('edit', 'webhooks', id);
        }}
      />
    </>
  );
}

/** Switches the endpoint on (clearing a disable) or off, in one click. */
function ActiveToggleButton() {
  const webhook = useRecordContext<Webhook>();
  const translate = useTranslate();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<Webhook>();
  if (!webhook) return null;
  const on = !webhook.active;
  return (
    <Button
      size="small"
      startIcon={on ? <PlayIcon /> : <PauseIcon />}
      disabled={isPending}
      onClick={() =>
        void update(
          'webhooks',
          { id: webhook.id, data: { active: on }, previousData: webhook },
          {
            mutationMode: 'pessimistic',
            onSuccess: () =>
              notify(on ? 'console.webhooks.enabled' : 'console.webhooks.disabled', { type: 'info' }),
            onError: (error) =>
              notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
          },
        )
      }
    >
      {translate(on ? 'console.webhooks.enable' : 'console.webhooks.disable')}
    </Button>
  );
}

function DisabledNotice() {
  const webhook = useRecordContext<Webhook>();
  const translate = useTranslate();
  if (!webhook) return null;
  const state = webhookState(webhook);
  if (state === 'disabled')
    return (
      <Alert severity="error" sx={{ m: 2, mb: 0 }}>
        {translate('console.webhooks.disabled_notice', { reason: webhook.disabled_reason })}
      </Alert>
    );
  if (state === 'failing')
    return (
      <Alert severity="warning" sx={{ m: 2, mb: 0 }}>
        {translate('console.webhooks.failing_notice', {
          since: new Date(webhook.failing_since ?? '').toLocaleString(),
        })}
      </Alert>
    );
  return null;
}

/** One delivery: the event, its state, attempts, the receiver's last answer and when. */
function DeliveryItem({ delivery, dateTime }: { delivery: WebhookDelivery; dateTime: Intl.DateTimeFormat }) {
  const translate = useTranslate();
  const eventLabel = useEventLabel();
  const answer =
    delivery.last_status_code !== null
      ? `HTTP ${delivery.last_status_code}`
      : translate('console.webhooks.no_answer');
  const when = delivery.delivered_at ?? delivery.last_attempt_at;
  return (
    <Box component="li" sx={{ py: 1, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Typography sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {eventLabel(delivery.event_type)}
        </Typography>
        <Chip
          size="small"
          label={translate(`console.webhooks.delivery.${delivery.status}`)}
          sx={{ bgcolor: DELIVERY_COLOURS[delivery.status], color: '#fff', fontWeight: 600 }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {[
          translate('console.webhooks.attempts', { smart_count: delivery.attempts }),
          delivery.attempts > 0 ? answer : null,
          when ? dateTime.format(new Date(when)) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      {delivery.last_error && delivery.status !== 'delivered' && (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere', color: 'error.main' }}>
          {delivery.last_error}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {translate('console.webhooks.event_id', { id: delivery.event })}
      </Typography>
    </Box>
  );
}

/** The endpoint's delivery log, newest first, twenty at a time. */
function DeliveryLog() {
  const webhook = useRecordContext<Webhook>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const dateTime = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }),
    [locale],
  );
  const log = useInfiniteQuery({
    queryKey: ['webhooks', webhook?.id, 'deliveries'],
    queryFn: ({ pageParam }) => dataProvider.webhookDeliveries(webhook?.id ?? 0, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
    enabled: Boolean(webhook),
  });
  if (!webhook) return null;
  const deliveries = log.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <Card variant="outlined" component="section" aria-labelledby="delivery-log-title" sx={{ mt: 2 }}>
        <CardContent>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
            <Typography id="delivery-log-title" component="h2" variant="h6" sx={{ flex: 1 }}>
              {translate('console.webhooks.log')}
            </Typography>
            <Button size="small" startIcon={<RefreshIcon />} onClick={() => void log.refetch()}>
              {translate('ra.action.refresh')}
            </Button>
          </Box>
          <SectionState
            isPending={log.isPending}
            error={log.error}
            retry={() => void log.refetch()}
            empty={deliveries.length === 0}
            emptyText={translate('console.webhooks.log_empty')}
          >
            <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="delivery-log">
              {deliveries.map((delivery) => (
                <DeliveryItem key={delivery.id} delivery={delivery} dateTime={dateTime} />
              ))}
            </Box>
            {log.hasNextPage && (
              <Button size="small" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
                {translate('console.webhooks.older')}
              </Button>
            )}
          </SectionState>
        </CardContent>
      </Card>
    </Box>
  );
}

/** The page title: "Webhook 3" (a URL in the app bar would be clipped on a phone; the form shows it whole). */
function WebhookTitle() {
  const webhook = useRecordContext<Webhook>();
  const translate = useTranslate();
  return <span>{translate('console.webhooks.title', { id: webhook?.id ?? '' })}</span>;
}

/** An endpoint: its URL, events and switch, on / off in one click, its delivery log. */
export function WebhookEdit() {
  return (
    <Edit
      title={<WebhookTitle />}
      mutationMode="pessimistic"
      redirect={false}
      transform={({ url, events, active }: Webhook) => ({ url, events, active })}
      actions={
        <TopToolbar>
          <ActiveToggleButton />
        </TopToolbar>
      }
    >
      <DisabledNotice />
      <SimpleForm
        toolbar={
          <Toolbar sx={{ justifyContent: 'space-between' }}>
            <SaveButton />
            <DeleteWithConfirmButton mutationMode="pessimistic" />
          </Toolbar>
        }
      >
        <WebhookInputs />
      </SimpleForm>
      <DeliveryLog />
    </Edit>
  );
}
