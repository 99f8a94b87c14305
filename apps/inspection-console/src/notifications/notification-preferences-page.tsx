import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  Form,
  HttpError,
  ResourceContextProvider,
  SaveButton,
  SelectInput,
  TextInput,
  TimeInput,
  Title,
  useDataProvider,
  useGetOne,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useParams } from 'react-router-dom';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type ConsoleUser, EVENT_TYPES, type NotificationPreferences } from '../api/resources';
import { SectionState } from '../layout/section-state';

/** `HH:MM:SS` from the API shows as `HH:MM`; an emptied field is null. */
const timeFormat = (value: unknown) => (typeof value === 'string' ? value.slice(0, 5) : '');
const timeParse = (value: string) => value || null;

/** The IANA zones this browser knows, for the time zone picker (the API validates the choice). */
const TIME_ZONES = Intl.supportedValuesOf('timeZone').map((zone) => ({ id: zone, name: zone }));

type PreferencesBody = Omit<NotificationPreferences, 'user' | 'updated_at'>;

function preferencesBody(values: Partial<NotificationPreferences>): PreferencesBody {
  return {
    events: values.events ?? [],
    quiet_hours_start: values.quiet_hours_start || null,
    quiet_hours_end: values.quiet_hours_end || null,
    time_zone: values.time_zone || null,
    reminder_time: values.reminder_time || null,
    email: values.email?.trim() || null,
    language: values.language || null,
    email_digest: values.email_digest ?? true,
    chat: values.chat ?? true,
  };
}

/** The languages messages are written in, each named in itself (none chosen: English, the API's default). */
const LANGUAGES = [
  { id: 'en', name: 'English' },
  { id: 'zh-CN', name: '简体中文' },
];

/**
 * What a person is told of and when (`/api/users/me/notifications/`, or a supervisor's view of someone's at
 * `/api/users/{id}/notifications/`): the events, the channels (chat, email and its daily digest, the language),
 * quiet hours, the time zone of these times and the reminder time.
 * The API owns every rule; its DRF 400s show under the inputs.
 */
export function NotificationPreferencesPage({ user }: { user: 'me' | number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const queryKey = ['notification-preferences', user];
  const preferences = useQuery({ queryKey, queryFn: () => dataProvider.notificationPreferences(user) });
  const person = useGetOne<ConsoleUser>(
    'users',
    { id: user === 'me' ? 0 : user },
    { enabled: user !== 'me' },
  );
  const title =
    user === 'me'
      ? translate('console.notifications.title_mine')
      : translate('console.notifications.title_of', { username: person.data?.username ?? `#${user}` });
  const eventChoices = EVENT_TYPES.map((id) => ({ id, name: translate(`console.events.${id}`) }));

  const save = async (values: Partial<NotificationPreferences>) => {
    try {
      const saved = await dataProvider.saveNotificationPreferences(user, preferencesBody(values));
      queryClient.setQueryData(queryKey, saved);
      notify('console.notifications.saved', { type: 'success' });
      return undefined;
    } catch (failure) {
      const body = failure instanceof HttpError ? (failure.body as { errors?: Record<string, unknown> }) : {};
      const { non_field_errors: whole, ...fields } = body?.errors ?? {};
      notify(
        typeof whole === 'string' ? whole : failure instanceof Error ? failure.message : String(failure),
        { type: 'error' },
      );
      return Object.keys(fields).length ? fields : undefined;
    }
  };

  return (
    <Box sx={{ mt: 1, maxWidth: 720 }} data-testid="notification-preferences">
      <Title title={title} />
      <Card>
        <CardContent>
          <Typography component="h2" variant="h6" gutterBottom>
            {title}
          </Typography>
          <SectionState
            isPending={preferences.isPending}
            error={preferences.error}
            retry={() => void preferences.refetch()}
          >
            {preferences.data && (
              <ResourceContextProvider value="notifications">
                <Form
                  record={preferences.data}
                  onSubmit={save}
                  key={preferences.data.updated_at ?? 'defaults'}
                >
                  {preferences.data.updated_at === null && (
                    <Alert severity="info" sx={{ mb: 2 }}>
                      {translate('console.notifications.defaults')}
                    </Alert>
                  )}
                  <CheckboxGroupInput
                    source="events"
                    choices={eventChoices}
                    row={false}
                    helperText={translate('console.notifications.events_help')}
                  />
                  <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 2 }}>
                    {translate('console.notifications.channels')}
                  </Typography>
                  <BooleanInput source="chat" helperText={translate('console.notifications.chat_help')} />
                  <TextInput
                    source="email"
                    type="email"
                    autoComplete="email"
                    helperText={translate('console.notifications.email_help')}
                    sx={{ maxWidth: 420 }}
                  />
                  <BooleanInput
                    source="email_digest"
                    helperText={translate('console.notifications.email_digest_help')}
                  />
                  <SelectInput
                    source="language"
                    choices={LANGUAGES}
                    format={(value: unknown) => value || 'en'}
                    helperText={translate('console.notifications.language_help')}
                    sx={{ maxWidth: 420 }}
                  />
                  <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 2 }}>
                    {translate('console.notifications.quiet_hours')}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                    {translate('console.notifications.quiet_hours_help')}
                  </Typography>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
                    <TimeInput
                      source="quiet_hours_start"
                      format={timeFormat}
                      parse={timeParse}
                      sx={{ width: 200 }}
                    />
                    <TimeInput
                      source="quiet_hours_end"
                      format={timeFormat}
                      parse={timeParse}
                      sx={{ width: 200 }}
                    />
                  </Box>
                  <AutocompleteInput
                    source="time_zone"
                    choices={TIME_ZONES}
                    emptyText={translate('console.notifications.site_time_zone')}
                    helperText={translate('console.notifications.time_zone_help')}
                    sx={{ maxWidth: 420 }}
                  />
                  <TimeInput
                    source="reminder_time"
                    format={timeFormat}
                    parse={timeParse}
                    helperText={translate('console.notifications.reminder_time_help')}
                    sx={{ width: 200 }}
                  />
                  <Box sx={{ mt: 2 }}>
                    <SaveButton alwaysEnable />
                  </Box>
                </Form>
              </ResourceContextProvider>
            )}
          </SectionState>
        </CardContent>
      </Card>
    </Box>
  );
}

/** The signed-in person's own preferences (`#/notifications`). */
export function MyNotificationsPage() {
  return <NotificationPreferencesPage user="me" />;
}

/** A supervisor's view of someone's preferences (`#/users/:id/notifications`). */
export function UserNotificationsPage() {
  const { id } = useParams();
  return <NotificationPreferencesPage user={Number(id)} />;
}
