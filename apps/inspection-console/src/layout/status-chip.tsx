import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type CheckStatus, type DueStatus } from '../api/resources';
import { statusColours } from './console-theme';

/** A check status (ok / warn / fail) or due status as a labelled chip; the colour is never the only cue. */
export function StatusChip({ status }: { status: CheckStatus | DueStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(`console.status.${status}`)}
      sx={{ bgcolor: statusColours[status], color: '#fff', fontWeight: 600, minWidth: 64 }}
    />
  );
}
