import { DateInput, Edit, SelectInput, SimpleForm, TextInput, required } from 'react-admin';
import { type CorrectiveAction } from '../api/resources';
import { AssigneeInput, usePriorityChoices } from './open-action-button';

/** What an action is: title, description, assignee (a user or a team), due date, priority (the supervisors' fields). */
export function ActionEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="show"
      transform={({ title, description, assignee, assignee_team, due_date, priority }: CorrectiveAction) => ({
        title,
        description,
        assignee: assignee ?? null,
        assignee_team: assignee ? null : (assignee_team ?? null),
        due_date: due_date || null,
        priority,
      })}
    >
      <SimpleForm sx={{ maxWidth: 600 }}>
        <TextInput source="title" validate={required()} />
        <TextInput source="description" multiline minRows={2} />
        <AssigneeInput />
        <DateInput source="due_date" />
        <SelectInput source="priority" choices={usePriorityChoices()} validate={required()} />
      </SimpleForm>
    </Edit>
  );
}
