import { Chip } from '@mui/material';
import { useWatch } from 'react-hook-form';
import {
  AutocompleteInput,
  BooleanInput,
  Create,
  Datagrid,
  DeleteWithConfirmButton,
  Edit,
  FunctionField,
  NumberInput,
  RadioButtonGroupInput,
  ReferenceField,
  ReferenceInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  TimeInput,
  Toolbar,
  maxValue,
  minValue,
  required,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type ReportSubscription, type ReportSubscriptionSend } from '../api/resources';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';

const SEND_COLOURS: Record<ReportSubscriptionSend['status'], string> = {
  pending: '#a15c00',
  sent: '#1b7f3b',
  failed: '#c62828',
};

/** The languages a report is written in, each named in itself. */
const LANGUAGES = [
  { id: 'en', name: 'English' },
  { id: 'zh-CN', name: '简体中文' },
];

/** The IANA zones this browser knows, and UTC, which it leaves out (the API validates the choice). */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')].map(
  (zone) => ({ id: zone, name: zone }),
);

/** `HH:MM:SS` from the API shows as `HH:MM`. */
const timeFormat = (value: unknown) => (typeof value === 'string' ? value.slice(0, 5) : '');

/** The addresses as one text (one per line) and back (split on lines, commas, semicolons and spaces). */
const recipientsFormat = (value: unknown) => (Array.isArray(value) ? value.join('\n') : '');
const recipientsParse = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter(Boolean);

/** The last send: its month and state (sent, retrying, failed), or "not sent yet". */
function LastSend({ subscription }: { subscription: ReportSubscription }) {
  const translate = useTranslate();
  const send = subscription.last_send;
  if (!send) return <>{translate('console.report_subscriptions.never_sent')}</>;
  return (
    <Chip
      size="small"
      label={`${send.month} · ${translate(`console.report_subscriptions.send.${send.status}`)}`}
      title={send.last_error || undefined}
      sx={{ bgcolor: SEND_COLOURS[send.status], color: '#fff', fontWeight: 600 }}
    />
  );
}

/** When the next report goes, in the reader's locale (and the month it covers), or "off". */
function NextSend({ subscription }: { subscription: ReportSubscription }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!subscription.next_send_at || !subscription.next_month)
    return <>{translate('console.report_subscriptions.off')}</>;
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: subscription.time_zone,
  }).format(new Date(subscription.next_send_at));
  return (
    <>
      {translate('console.report_subscriptions.next', {
        when,
        zone: subscription.time_zone,
        month: subscription.next_month,
      })}
    </>
  );
}

/** The plan or device a subscription reports, by name. */
function Scope() {
  const subscription = useRecordContext<ReportSubscription>();
  if (!subscription) return null;
  return subscription.plan !== null ? (
    <ReferenceField source="plan" reference="plans" link={false} />
  ) : (
    <ReferenceField source="device" reference="devices" link={false} />
  );
}

function SubscriptionCards() {
  const translate = useTranslate();
  return (
    <CardList<ReportSubscription> link="edit">
      {(subscription) => (
        <>
          <CardTitle end={<LastSend subscription={subscription} />}>
            <Scope />
          </CardTitle>
          <CardLine>
            {translate('console.report_subscriptions.to', {
              smart_count: subscription.recipients.length,
              first: subscription.recipients[0] ?? '',
            })}
          </CardLine>
          <CardLine>
            <NextSend subscription={subscription} />
          </CardLine>
        </>
      )}
    </CardList>
  );
}

/** The monthly report subscriptions: what is reported, to whom, the last and the next send; cards on phones. */
export function ReportSubscriptionList() {
  return (
    <ResponsiveList cards={<SubscriptionCards />}>
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <FunctionField<ReportSubscription>
          label="console.report_subscriptions.scope"
          render={() => <Scope />}
        />
        <FunctionField<ReportSubscription>
          source="recipients"
          sortable={false}
          render={(subscription) => subscription.recipients.join(', ')}
          sx={{ overflowWrap: 'anywhere' }}
        />
        <FunctionField<ReportSubscription>
          source="last_send"
          sortable={false}
          render={(subscription) => <LastSend subscription={subscription} />}
        />
        <FunctionField<ReportSubscription>
          source="next_send_at"
          sortable={false}
          render={(subscription) => <NextSend subscription={subscription} />}
        />
      </Datagrid>
    </ResponsiveList>
  );
}

/** The plan or device picker, as the chosen kind says. */
function ScopeInput() {
  const kind = useWatch<{ kind: 'plan' | 'device' }>({ name: 'kind' });
  return kind === 'device' ? (
    <ReferenceInput source="device" reference="devices" perPage={50}>
      <AutocompleteInput validate={required()} sx={{ maxWidth: 420 }} fullWidth />
    </ReferenceInput>
  ) : (
    <ReferenceInput source="plan" reference="plans" perPage={50}>
      <AutocompleteInput validate={required()} sx={{ maxWidth: 420 }} fullWidth />
    </ReferenceInput>
  );
}

function SubscriptionInputs() {
  const translate = useTranslate();
  return (
    <>
      <RadioButtonGroupInput
        source="kind"
        label="console.report_subscriptions.scope"
        choices={[
          { id: 'plan', name: 'console.report_subscriptions.kind.plan' },
          { id: 'device', name: 'console.report_subscriptions.kind.device' },
        ]}
      />
      <ScopeInput />
      <TextInput
        source="recipients"
        multiline
        minRows={2}
        format={recipientsFormat}
        parse={recipientsParse}
        validate={required()}
        helperText={translate('console.report_subscriptions.recipients_help')}
        sx={{ maxWidth: 520 }}
        fullWidth
      />
      <SelectInput source="language" choices={LANGUAGES} validate={required()} sx={{ maxWidth: 420 }} />
      <NumberInput
        source="day_of_month"
        min={1}
        max={28}
        validate={[required(), minValue(1), maxValue(28)]}
        helperText={translate('console.report_subscriptions.day_help')}
        sx={{ width: 200 }}
      />
      <TimeInput source="send_time" format={timeFormat} validate={required()} sx={{ width: 200 }} />
      <AutocompleteInput
        source="time_zone"
        choices={TIME_ZONES}
        validate={required()}
        helperText={translate('console.report_subscriptions.time_zone_help')}
        sx={{ maxWidth: 420 }}
        fullWidth
      />
      <BooleanInput source="active" helperText={translate('console.report_subscriptions.active_help')} />
    </>
  );
}

type SubscriptionForm = ReportSubscription & { kind?: 'plan' | 'device' };

/** The body the API takes: the chosen kind's reference, the other cleared. */
function body({
  kind,
  plan,
  device,
  recipients,
  language,
  time_zone,
  day_of_month,
  send_time,
  active,
}: SubscriptionForm) {
  return {
    plan: kind === 'device' ? null : plan,
    device: kind === 'device' ? device : null,
    recipients,
    language,
    time_zone,
    day_of_month,
    send_time,
    active,
  };
}

const siteTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A new subscription: the 1st at 07:00 of the browser's zone by default. */
export function ReportSubscriptionCreate() {
  const [locale] = useLocaleState();
  return (
    <Create<ReportSubscription> redirect="list" transform={body}>
      <SimpleForm
        defaultValues={{
          kind: 'plan',
          recipients: [],
          language: locale === 'zh-CN' ? 'zh-CN' : 'en',
          day_of_month: 1,
          send_time: '07:00',
          time_zone: siteTimeZone(),
          active: true,
        }}
      >
        <SubscriptionInputs />
      </SimpleForm>
    </Create>
  );
}

/** The page title: "Monthly report 3". */
function SubscriptionTitle() {
  const subscription = useRecordContext<ReportSubscription>();
  const translate = useTranslate();
  return <span>{translate('console.report_subscriptions.title', { id: subscription?.id ?? '' })}</span>;
}

/** A subscription: its scope, list, language and schedule; deleted with a confirmation. */
export function ReportSubscriptionEdit() {
  return (
    <Edit<ReportSubscription>
      title={<SubscriptionTitle />}
      mutationMode="pessimistic"
      redirect="list"
      transform={body}
      queryOptions={{
        select: (subscription: ReportSubscription) => ({
          ...subscription,
          kind: subscription.device !== null ? 'device' : 'plan',
        }),
      }}
    >
      <SimpleForm
        toolbar={
          <Toolbar sx={{ justifyContent: 'space-between' }}>
            <SaveButton />
            <DeleteWithConfirmButton mutationMode="pessimistic" />
          </Toolbar>
        }
      >
        <SubscriptionInputs />
      </SimpleForm>
    </Edit>
  );
}
