import {
  AutocompleteArrayInput,
  Create,
  Datagrid,
  DateField,
  DeleteWithConfirmButton,
  Edit,
  EditButton,
  FunctionField,
  SaveButton,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  maxLength,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type Team } from '../api/resources';
import { RecordAuditHistory } from '../audit/audit-history';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';
import { usePeople } from '../users/use-people';

/** A team's members by username, in the order of their names ("—" for none). */
function useMemberNames() {
  const { people } = usePeople();
  const names = new Map(people.map((user) => [user.id, user.username]));
  return (team: Team) =>
    team.members.length
      ? team.members
          .map((id) => names.get(id) ?? `#${id}`)
          .sort((a, b) => a.localeCompare(b))
          .join(', ')
      : '—';
}

/** A team as a card (phones): its name, how many members and who. */
function TeamCards() {
  const translate = useTranslate();
  const members = useMemberNames();
  return (
    <CardList<Team> link="edit">
      {(team) => (
        <>
          <CardTitle>{team.name}</CardTitle>
          <CardLine>
            {translate('console.label', { label: translate('resources.teams.fields.members') })}
            {members(team)}
          </CardLine>
        </>
      )}
    </CardList>
  );
}

export function TeamList() {
  const members = useMemberNames();
  return (
    <ResponsiveList cards={<TeamCards />}>
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="name" sortable={false} />
        <FunctionField<Team> source="members" sortable={false} render={members} />
        <DateField source="created_at" sortable={false} />
        <EditButton />
      </Datagrid>
    </ResponsiveList>
  );
}

/** The members picker: active people (and anyone already a member), by username. */
function MembersInput() {
  const translate = useTranslate();
  const team = useRecordContext<Team>();
  const { people, isPending } = usePeople();
  const choices = people
    .filter((user) => user.is_active || team?.members.includes(user.id))
    .map((user) => ({ id: user.id, name: `${user.username} · ${translate(`console.role.${user.role}`)}` }));
  return (
    <AutocompleteArrayInput
      source="members"
      choices={choices}
      isPending={isPending}
      helperText={translate('console.teams.members_help')}
      sx={{ minWidth: 320 }}
    />
  );
}

const nameValidation = [required(), maxLength(150)];

/** The API's writable fields: a name and the whole set of members. */
const teamBody = ({ name, members }: Team) => ({ name, members: members ?? [] });

export function TeamCreate() {
  return (
    <Create redirect="list" transform={teamBody}>
      <SimpleForm defaultValues={{ members: [] }} sx={{ maxWidth: 600 }}>
        <TextInput source="name" validate={nameValidation} autoComplete="off" />
        <MembersInput />
      </SimpleForm>
    </Create>
  );
}

function TeamTitle() {
  const team = useRecordContext<Team>();
  const translate = useTranslate();
  return <>{team ? `${translate('resources.teams.name', { smart_count: 1 })} ${team.name}` : ''}</>;
}

export function TeamEdit() {
  const translate = useTranslate();
  return (
    <Edit title={<TeamTitle />} mutationMode="pessimistic" redirect="list" transform={teamBody}>
      <SimpleForm
        sx={{ maxWidth: 600 }}
        toolbar={
          <Toolbar sx={{ justifyContent: 'space-between' }}>
            <SaveButton />
            <DeleteWithConfirmButton
              mutationMode="pessimistic"
              confirmContent={translate('console.teams.delete_content')}
            />
          </Toolbar>
        }
      >
        <TextInput source="name" validate={nameValidation} autoComplete="off" />
        <MembersInput />
      </SimpleForm>
      <RecordAuditHistory resource="team" />
    </Edit>
  );
}
