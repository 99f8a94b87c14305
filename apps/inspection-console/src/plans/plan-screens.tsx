import { Box, Card, CardContent, List as MuiList, ListItem, ListItemText, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  AutocompleteArrayInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateInput,
  Edit,
  EditButton,
  FunctionField,
  NullableBooleanInput,
  NumberInput,
  ReferenceArrayInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TimeInput,
  TopToolbar,
  maxLength,
  required,
  useDataProvider,
  useGetList,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type CheckPlan, type DueRow, type PlanSchedule, SCHEDULE_UNITS } from '../api/resources';
import { RecordAuditHistory } from '../audit/audit-history';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';
import { SectionState } from '../layout/section-state';
import { StatusChip } from '../layout/status-chip';
import { usePeople } from '../users/use-people';
import { useTeams } from '../teams/use-teams';
import { DownloadReportButton } from '../reports/download-report-button';
import { calendarDayFormatter, scheduleText } from './schedule-text';

/** A schedule in words, in the console's language ("Quarterly, due by 16:00"). */
function useScheduleText() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const formatDay = calendarDayFormatter(locale);
  return (schedule: PlanSchedule) => scheduleText(schedule, translate, formatDay);
}

/** The plan's assignees by username, then its teams by name ("team Night crew"); "—" for nobody. */
function useAssigneeNames() {
  const { people } = usePeople();
  const { teams } = useTeams();
  const translate = useTranslate();
  const names = new Map(people.map((user) => [user.id, user.username]));
  const teamNames = new Map(teams.map((team) => [team.id, team.name]));
  return (plan: CheckPlan) => {
    const all = [
      ...plan.assignees.map((id) => names.get(id) ?? `#${id}`),
      ...(plan.assignee_teams ?? []).map((id) =>
        translate('console.plans.team_name', { name: teamNames.get(id) ?? `#${id}` }),
      ),
    ];
    return all.length ? all.join(', ') : '—';
  };
}

/** Today's due counts of every plan, from `GET /api/due/summary/` (one request for the whole list). */
export function useDueSummary() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({ queryKey: ['due-summary'], queryFn: () => dataProvider.dueSummary() });
}

function PlanDueState() {
  const plan = useRecordContext<CheckPlan>();
  const translate = useTranslate();
  const { data, isPending, error } = useDueSummary();
  if (!plan) return null;
  if (!plan.active) return <Typography variant="body2">{translate('console.plans.inactive')}</Typography>;
  if (isPending) return <Typography variant="body2">…</Typography>;
  if (error) return <Typography variant="body2">—</Typography>;
  const counts = data.plans.find((entry) => entry.id === plan.id);
  if (!counts) return <Typography variant="body2">—</Typography>;
  return <Typography variant="body2">{translate('console.plans.due_counts', counts)}</Typography>;
}

const planFilters = [<NullableBooleanInput key="active" source="active" alwaysOn />];

/** A plan as a card (phones): name, frequency and devices, today's due state. */
function PlanCards() {
  const translate = useTranslate();
  const schedule = useScheduleText();
  const assignees = useAssigneeNames();
  return (
    <CardList<CheckPlan> link="edit">
      {(plan) => (
        <>
          <CardTitle>{plan.name}</CardTitle>
          <CardLine>
            {`${schedule(plan.schedule)} · ${translate('console.label', { label: translate('resources.plans.fields.devices') })}${plan.devices.length}`}
          </CardLine>
          <CardLine>{`${translate('console.label', { label: translate('resources.plans.fields.assignees') })}${assignees(plan)}`}</CardLine>
          <CardLine>
            <PlanDueState />
          </CardLine>
        </>
      )}
    </CardList>
  );
}

export function PlanList() {
  const schedule = useScheduleText();
  const assignees = useAssigneeNames();
  return (
    <ResponsiveList filters={planFilters} cards={<PlanCards />}>
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="name" sortable={false} />
        <FunctionField<CheckPlan>
          source="schedule"
          sortable={false}
          render={(plan) => schedule(plan.schedule)}
        />
        <FunctionField<CheckPlan> source="assignees" sortable={false} render={assignees} />
        <BooleanField source="active" sortable={false} />
        <FunctionField<CheckPlan>
          source="devices"
          sortable={false}
          render={(plan) => String(plan.devices.length)}
        />
        <FunctionField label="console.plans.due_state" render={() => <PlanDueState />} />
        <EditButton />
      </Datagrid>
    </ResponsiveList>
  );
}

/** Under the schedule's inputs: what they say, in words ("Quarterly, due by 16:00"). */
function ScheduleSummary() {
  const schedule = useWatch({ name: 'schedule' }) as Partial<PlanSchedule> | undefined;
  const text = useScheduleText();
  const every = Number(schedule?.every);
  if (!schedule?.unit || !Number.isInteger(every) || every < 1) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="schedule-summary">
      {text({
        every,
        unit: schedule.unit,
        starts_on: schedule.starts_on ?? null,
        due_time: schedule.due_time ?? null,
      })}
    </Typography>
  );
}

/** The people who can be responsible for a plan's rounds: active users, and whoever is assigned already. */
function AssigneesInput() {
  const { people, isPending } = usePeople();
  const plan = useRecordContext<CheckPlan>();
  const translate = useTranslate();
  const choices = people
    .filter((user) => user.is_active || plan?.assignees.includes(user.id))
    .map((user) => ({ id: user.id, name: `${user.username} · ${translate(`console.role.${user.role}`)}` }));
  return (
    <AutocompleteArrayInput
      source="assignees"
      choices={choices}
      isPending={isPending}
      helperText={translate('console.plans.assignees_help')}
      sx={{ minWidth: 320 }}
    />
  );
}

/** The teams that can be responsible for a plan's rounds (every member counts as an assignee). */
function AssigneeTeamsInput() {
  const { teams, isPending } = useTeams();
  const translate = useTranslate();
  return (
    <AutocompleteArrayInput
      source="assignee_teams"
      choices={teams.map((team) => ({ id: team.id, name: team.name }))}
      isPending={isPending}
      helperText={translate('console.plans.assignee_teams_help')}
      sx={{ minWidth: 320 }}
    />
  );
}

/** `HH:MM:SS` from the API shows as `HH:MM`; an emptied field is null (no due time). */
const timeFormat = (value: unknown) => (typeof value === 'string' ? value.slice(0, 5) : '');
const timeParse = (value: string) => value || null;

function PlanForm() {
  const translate = useTranslate();
  const unitChoices = SCHEDULE_UNITS.map((id) => ({ id, name: translate(`console.schedule.unit.${id}`) }));
  const openActionChoices = (['fail', 'warn', 'never'] as const).map((id) => ({
    id,
    name: translate(`console.open_action_on.${id}`),
  }));
  return (
    <SimpleForm sx={{ maxWidth: 720 }}>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mt: 1 }}>
        {translate('console.plans.schedule')}
      </Typography>
      {/* Limits (1..366) and formats are the API's rules: its 400s show under these inputs. */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
        <NumberInput source="schedule.every" validate={required()} sx={{ width: 140 }} />
        <SelectInput source="schedule.unit" choices={unitChoices} validate={required()} sx={{ width: 200 }} />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
        <DateInput
          source="schedule.starts_on"
          helperText={translate('console.plans.starts_on_help')}
          sx={{ width: 220 }}
        />
        <TimeInput
          source="schedule.due_time"
          format={timeFormat}
          parse={timeParse}
          helperText={translate('console.plans.due_time_help')}
          sx={{ width: 220 }}
        />
      </Box>
      <ScheduleSummary />
      <AssigneesInput />
      <AssigneeTeamsInput />
      <ReferenceArrayInput source="devices" reference="devices" perPage={50}>
        <AutocompleteArrayInput
          optionText={(device: { code: string; name: string }) => `${device.code} · ${device.name}`}
          filterToQuery={(q: string) => ({ q })}
          helperText={translate('console.plans.devices_help')}
          validate={required()}
          sx={{ minWidth: 320 }}
        />
      </ReferenceArrayInput>
      <SelectInput source="open_action_on" choices={openActionChoices} validate={required()} />
      <BooleanInput source="active" defaultValue={true} />
    </SimpleForm>
  );
}

/**
 * What the form sends: the schedule (the API derives the spec's `frequency` from it, so the word read back is
 * left out: sent with a changed schedule it would contradict it) and the writable fields.
 */
function planBody(plan: Partial<CheckPlan>) {
  const { name, active, devices, assignees, assignee_teams, open_action_on, schedule } = plan;
  return {
    name,
    active,
    devices,
    assignees,
    assignee_teams,
    open_action_on,
    schedule: schedule && {
      every: schedule.every,
      unit: schedule.unit,
      starts_on: schedule.starts_on || null,
      due_time: schedule.due_time || null,
    },
  };
}

const NEW_PLAN: Partial<CheckPlan> = {
  active: true,
  open_action_on: 'fail',
  schedule: { every: 1, unit: 'day', starts_on: null, due_time: null },
  assignees: [],
  assignee_teams: [],
};

/** Beside the plan's form: today's due rows of the plan (`GET /api/due/?plan=`). */
function PlanDueAside() {
  const plan = useRecordContext<CheckPlan>();
  const translate = useTranslate();
  const { data, isPending, error, refetch } = useGetList<DueRow & { id: string }>(
    'due',
    { filter: { plan: plan?.id }, pagination: { page: 1, perPage: 100 } },
    { enabled: Boolean(plan) },
  );
  return (
    <Card
      sx={{
        ml: { lg: 2 },
        mt: { xs: 2, lg: 0 },
        width: { lg: 340 },
        flexShrink: 0,
        alignSelf: { xs: 'stretch', lg: 'flex-start' },
      }}
    >
      <CardContent>
        <Typography component="h2" variant="h6" gutterBottom>
          {translate('console.plans.due_now')}
        </Typography>
        <SectionState
          isPending={Boolean(plan) && isPending}
          error={error}
          retry={() => void refetch()}
          empty={!data?.length}
          emptyText={translate('console.plans.no_due_rows')}
        >
          <MuiList dense disablePadding>
            {data?.map((row) => (
              <ListItem key={row.id} disableGutters secondaryAction={<StatusChip status={row.status} />}>
                <ListItemText
                  primary={`${row.device.code} · ${row.item?.name ?? '—'}`}
                  secondary={row.device.name}
                />
              </ListItem>
            ))}
          </MuiList>
        </SectionState>
      </CardContent>
    </Card>
  );
}

export function PlanCreate() {
  return (
    <Create redirect="list" transform={planBody} record={NEW_PLAN}>
      <PlanForm />
    </Create>
  );
}

export function PlanEdit() {
  return (
    <Box>
      <Edit
        mutationMode="pessimistic"
        redirect="list"
        transform={planBody}
        aside={<PlanDueAside />}
        actions={
          <TopToolbar>
            <DownloadReportButton kind="plans" />
          </TopToolbar>
        }
        sx={{ '& .RaEdit-main': { flexDirection: { xs: 'column', lg: 'row' } } }}
      >
        <PlanForm />
        <RecordAuditHistory resource="plan" />
      </Edit>
    </Box>
  );
}
