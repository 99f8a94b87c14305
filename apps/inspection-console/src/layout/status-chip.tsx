import { Box, Chip } from '@mui/material';
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

/** "Out of range": the value was outside its typed item's limits or options when recorded. */
export function OutOfRangeChip() {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      label={translate('console.records.out_of_range')}
      sx={{ borderColor: statusColours.fail, color: statusColours.fail, fontWeight: 600 }}
      data-testid="out-of-range"
    />
  );
}

/** A record's status, and "out of range" beside it when its value was. */
export function RecordStatusChips({ status, outOfRange }: { status: CheckStatus; outOfRange?: boolean }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }}>
      <StatusChip status={status} />
      {outOfRange && <OutOfRangeChip />}
    </Box>
  );
}
