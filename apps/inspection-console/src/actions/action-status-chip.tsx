import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type ActionStatus } from '../api/resources';

/** Colours of the action statuses (white text on each: contrast ≥ 4.5:1). */
export const actionStatusColours: Record<ActionStatus, string> = {
  open: '#1565c0',
  in_progress: '#8a4b00',
  done: '#1b7f3b',
  verified: '#2e4a3a',
  cancelled: '#5f6368',
};

/** An action's status as a labelled chip. */
export function ActionStatusChip({ status }: { status: ActionStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(`console.action_status.${status}`)}
      sx={{ bgcolor: actionStatusColours[status], color: '#fff', fontWeight: 600, maxWidth: '100%' }}
    />
  );
}

/** "Overdue" beside an action whose due date has passed. */
export function OverdueChip() {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate('console.status.overdue')}
      sx={{ bgcolor: '#c62828', color: '#fff', fontWeight: 600 }}
    />
  );
}
