import NotificationsIcon from '@mui/icons-material/NotificationsNone';
import { Button, Chip } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import {
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DateField,
  Edit,
  EditButton,
  FunctionField,
  PasswordInput,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  minLength,
  required,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type ConsoleUser } from '../api/resources';
import { RecordAuditHistory } from '../audit/audit-history';
import { CardLine, CardList, CardTitle } from '../layout/card-list';
import { ResponsiveList } from '../layout/responsive-list';
import { ResetPasswordButton } from './reset-password-button';

/** To the user's notification preferences (a supervisor reads and changes anyone's). */
function UserNotificationsButton() {
  const user = useRecordContext<ConsoleUser>();
  const translate = useTranslate();
  if (!user) return null;
  return (
    <Button component={RouterLink} to={`/users/${user.id}/notifications`} startIcon={<NotificationsIcon />}>
      {translate('console.notifications.menu_of')}
    </Button>
  );
}

function useRoleChoices() {
  const translate = useTranslate();
  return (['inspector', 'supervisor'] as const).map((id) => ({ id, name: translate(`console.role.${id}`) }));
}

function RoleChip({ user }: { user: ConsoleUser }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant={user.role === 'supervisor' ? 'filled' : 'outlined'}
      color={user.role === 'supervisor' ? 'primary' : 'default'}
      label={translate(`console.role.${user.role}`)}
    />
  );
}

/** A user as a card (phones): username and role, active or not, last sign-in. */
function UserCards() {
  const translate = useTranslate();
  return (
    <CardList<ConsoleUser> link="edit">
      {(user) => (
        <>
          <CardTitle end={<RoleChip user={user} />}>{user.username}</CardTitle>
          <CardLine>
            {user.is_active ? translate('console.users.active') : translate('console.users.inactive')}
            {' · '}
            {translate('console.label', { label: translate('resources.users.fields.last_login') })}
            <DateField source="last_login" showTime emptyText="—" />
          </CardLine>
        </>
      )}
    </CardList>
  );
}

export function UserList() {
  const roleChoices = useRoleChoices();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn />,
    <SelectInput key="role" source="role" choices={roleChoices} alwaysOn />,
  ];
  return (
    <ResponsiveList filters={filters} cards={<UserCards />}>
      <Datagrid bulkActionButtons={false} rowClick="edit">
        <TextField source="username" sortable={false} />
        <FunctionField<ConsoleUser>
          source="role"
          sortable={false}
          render={(user) => <RoleChip user={user} />}
        />
        <BooleanField source="is_active" sortable={false} />
        <DateField source="date_joined" sortable={false} />
        <DateField source="last_login" showTime sortable={false} emptyText="—" />
        <EditButton />
      </Datagrid>
    </ResponsiveList>
  );
}

export function UserCreate() {
  const translate = useTranslate();
  return (
    <Create redirect="list">
      <SimpleForm defaultValues={{ role: 'inspector' }} sx={{ maxWidth: 600 }}>
        <TextInput source="username" validate={required()} autoComplete="off" />
        <PasswordInput
          source="password"
          validate={[required(), minLength(8)]}
          autoComplete="new-password"
          helperText={translate('console.users.password_help')}
        />
        <SelectInput source="role" choices={useRoleChoices()} validate={required()} />
      </SimpleForm>
    </Create>
  );
}

export function UserEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="list"
      transform={({ role, is_active }: ConsoleUser) => ({ role, is_active })}
    >
      <SimpleForm
        sx={{ maxWidth: 600 }}
        toolbar={
          <Toolbar sx={{ gap: 2 }}>
            <SaveButton />
            <ResetPasswordButton />
            <UserNotificationsButton />
          </Toolbar>
        }
      >
        <TextInput source="username" disabled />
        <SelectInput source="role" choices={useRoleChoices()} validate={required()} />
        <BooleanInput source="is_active" />
      </SimpleForm>
      <RecordAuditHistory resource="user" />
    </Edit>
  );
}
