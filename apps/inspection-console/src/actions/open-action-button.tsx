import AddTaskIcon from '@mui/icons-material/AddTask';
import { Box, Button, Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useFormContext } from 'react-hook-form';
import { useState } from 'react';
import {
  AutocompleteInput,
  CreateBase,
  DateInput,
  SelectInput,
  SimpleForm,
  TextInput,
  required,
  useTranslate,
} from 'react-admin';
import { type CheckRecord } from '../api/resources';
import { useTeams } from '../teams/use-teams';
import { usePeople } from '../users/use-people';

/**
 * The action form's assignee: one of the people, or a team instead (choosing one clears the other: the API refuses
 * both).
 */
export function AssigneeInput() {
  const { people, isPending } = usePeople();
  const { teams, isPending: teamsPending } = useTeams();
  const { setValue } = useFormContext();
  const clear = (other: 'assignee' | 'assignee_team') => (value: unknown) => {
    if (value !== null && value !== undefined && value !== '') setValue(other, null, { shouldDirty: true });
  };
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, width: '100%' }}>
      <AutocompleteInput
        source="assignee"
        choices={people.map((user) => ({ id: user.id, name: user.username }))}
        isPending={isPending}
        emptyText="—"
        onChange={clear('assignee_team')}
        sx={{ flex: '1 1 200px' }}
      />
      <AutocompleteInput
        source="assignee_team"
        choices={teams.map((team) => ({ id: team.id, name: team.name }))}
        isPending={teamsPending}
        emptyText="—"
        onChange={clear('assignee')}
        sx={{ flex: '1 1 200px' }}
      />
    </Box>
  );
}

export function usePriorityChoices() {
  const translate = useTranslate();
  return (['low', 'medium', 'high'] as const).map((id) => ({
    id,
    name: translate(`console.priority.${id}`),
  }));
}

/**
 * "Open an action" on a record page: a supervisor names it, assigns it, gives it a due date and a priority
 * (`POST /api/actions/` with the record), then lands on the new action's page.
 */
export function OpenActionButton({ record, title }: { record: CheckRecord; title: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="contained" startIcon={<AddTaskIcon />} onClick={() => setOpen(true)}>
        {translate('console.actions.open_one')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="open-action-title"
      >
        <DialogTitle id="open-action-title">{translate('console.actions.open_one')}</DialogTitle>
        <DialogContent sx={{ px: 0, pb: 0 }}>
          <CreateBase
            resource="actions"
            redirect="show"
            mutationOptions={{ onSettled: () => setOpen(false) }}
          >
            <SimpleForm
              defaultValues={{
                record: record.id,
                title,
                priority: record.status === 'fail' ? 'high' : 'medium',
              }}
            >
              <TextInput source="title" validate={required()} />
              <TextInput source="description" multiline minRows={2} />
              <AssigneeInput />
              <DateInput source="due_date" />
              <SelectInput source="priority" choices={usePriorityChoices()} validate={required()} />
            </SimpleForm>
          </CreateBase>
        </DialogContent>
      </Dialog>
    </>
  );
}
