import { Box, Card, CardContent, List as MuiList, ListItem, ListItemText, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  AutocompleteArrayInput,
  CreateButton,
  TopToolbar,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  EditButton,
  FunctionField,
  List,
  NullableBooleanInput,
  ReferenceArrayInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  maxLength,
  required,
  useDataProvider,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type CheckPlan, type DueRow } from '../api/resources';
import { RecordAuditHistory } from '../audit/audit-history';
import { CardLine, CardList, CardTitle, usePhone } from '../layout/card-list';
import { EmptyList } from '../layout/empty-list';
import { SectionState } from '../layout/section-state';
import { StatusChip } from '../layout/status-chip';

export const FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;

function useFrequencyChoices() {
  const translate = useTranslate();
  return FREQUENCIES.map((id) => ({ id, name: translate(`console.frequency.${id}`) }));
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
  return (
    <CardList<CheckPlan> link="edit">
      {(plan) => (
        <>
          <CardTitle>{plan.name}</CardTitle>
          <CardLine>
            {`${translate(`console.frequency.${plan.frequency}`)} · ${translate('resources.plans.fields.devices')}: ${plan.devices.length}`}
          </CardLine>
          <CardLine>
            <PlanDueState />
          </CardLine>
        </>
      )}
    </CardList>
  );
}

export function PlanList() {
  const translate = useTranslate();
  const phone = usePhone();
  return (
    <List
      filters={planFilters}
      sort={{ field: 'id', order: 'ASC' }}
      empty={<EmptyList />}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
    >
      {phone ? (
        <PlanCards />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick="edit">
          <TextField source="name" sortable={false} />
          <FunctionField<CheckPlan>
            source="frequency"
            sortable={false}
            render={(plan) => translate(`console.frequency.${plan.frequency}`)}
          />
          <BooleanField source="active" sortable={false} />
          <FunctionField<CheckPlan>
            source="devices"
            sortable={false}
            render={(plan) => String(plan.devices.length)}
          />
          <FunctionField label="console.plans.due_state" render={() => <PlanDueState />} />
          <EditButton />
        </Datagrid>
      )}
    </List>
  );
}

function PlanForm() {
  const translate = useTranslate();
  return (
    <SimpleForm sx={{ maxWidth: 720 }}>
      <TextInput source="name" validate={[required(), maxLength(200)]} />
      <SelectInput source="frequency" choices={useFrequencyChoices()} validate={required()} />
      <BooleanInput source="active" defaultValue={true} />
      <ReferenceArrayInput source="devices" reference="devices" perPage={50}>
        <AutocompleteArrayInput
          optionText={(device: { code: string; name: string }) => `${device.code} · ${device.name}`}
          filterToQuery={(q: string) => ({ q })}
          helperText={translate('console.plans.devices_help')}
          validate={required()}
          sx={{ minWidth: 320 }}
        />
      </ReferenceArrayInput>
    </SimpleForm>
  );
}

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
      sx={{ ml: { md: 2 }, mt: { xs: 2, md: 0 }, width: { md: 340 }, flexShrink: 0, alignSelf: 'flex-start' }}
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
    <Create redirect="list">
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
        aside={<PlanDueAside />}
        sx={{ '& .RaEdit-main': { flexDirection: { xs: 'column', lg: 'row' } } }}
      >
        <PlanForm />
        <RecordAuditHistory resource="plan" />
      </Edit>
    </Box>
  );
}
