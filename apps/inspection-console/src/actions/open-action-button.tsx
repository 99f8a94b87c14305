import AddTaskIcon from '@mui/icons-material/AddTask';
import { Button, Dialog, DialogContent, DialogTitle } from '@mui/material';
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
import { usePeople } from '../users/use-people';

/** The action form's assignee: one of the people. */
export function AssigneeInput() {
  const { people, isPending } = usePeople();
  return (
    <AutocompleteInput
      source="assignee"
      choices={people.map((user) => ({ id: user.id, name: user.username }))}
      isPending={isPending}
      emptyText="—"
    />
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
