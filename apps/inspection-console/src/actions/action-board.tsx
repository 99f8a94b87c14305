import {
  Autocomplete,
  Box,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Title, useGetList, useTranslate } from 'react-admin';
import { type ActionStatus, type CorrectiveAction } from '../api/resources';
import { SectionState } from '../layout/section-state';
import { usePeople } from '../users/use-people';
import { useTeams } from '../teams/use-teams';
import { assigneeText } from './action-assignee';
import { actionStatusColours, OverdueChip } from './action-status-chip';

const COLUMNS: ActionStatus[] = ['open', 'in_progress', 'done', 'verified', 'cancelled'];
/** Unfinished work by due date, so overdue actions come first (the API: `ordering=due_date`, no date last). */
const UNFINISHED = new Set<ActionStatus>(['open', 'in_progress']);

function ActionCard({ action }: { action: CorrectiveAction }) {
  const translate = useTranslate();
  return (
    <Card
      variant="outlined"
      component="li"
      sx={{ listStyle: 'none' }}
      data-testid={`action-card-${action.id}`}
    >
      <CardActionArea component={RouterLink} to={`/actions/${action.id}/show`}>
        <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
          <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{action.title}</Typography>
          <Typography variant="body2" color="text.secondary">
            {assigneeText(action, translate)}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}>
            {action.overdue && <OverdueChip />}
            {action.due_date && (
              <Typography variant="body2" component="span">
                {translate('console.actions.due_on', { date: action.due_date })}
              </Typography>
            )}
            <Chip
              size="small"
              variant="outlined"
              label={translate(`console.priority.${action.priority}`)}
              sx={{ ml: 'auto' }}
            />
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** The board's filter: a person or a team (one at a time), or nobody (every action). */
interface BoardFilter {
  assignee: number | null;
  team: number | null;
}

function BoardColumn({ status, filter }: { status: ActionStatus; filter: BoardFilter }) {
  const translate = useTranslate();
  const actions = useGetList<CorrectiveAction>('actions', {
    filter: { status, assignee: filter.assignee ?? undefined, assignee_team: filter.team ?? undefined },
    pagination: { page: 1, perPage: 50 },
    sort: UNFINISHED.has(status)
      ? { field: 'due_date', order: 'ASC' }
      : { field: 'updated_at', order: 'DESC' },
  });
  const headingId = `board-${status}`;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      data-testid={`board-column-${status}`}
      sx={{
        bgcolor: 'grey.100',
        borderRadius: 1,
        p: 1,
        minWidth: 0,
        borderTop: 4,
        borderColor: actionStatusColours[status],
      }}
    >
      <Typography id={headingId} component="h2" variant="subtitle1" sx={{ fontWeight: 600, px: 0.5, mb: 1 }}>
        {translate(`console.action_status.${status}`)}
        {actions.total !== undefined && ` (${actions.total})`}
      </Typography>
      <SectionState
        isPending={actions.isPending}
        error={actions.error}
        retry={() => void actions.refetch()}
        empty={actions.data?.length === 0}
        emptyText={translate('console.actions.column_empty')}
      >
        <Box component="ul" sx={{ display: 'grid', gap: 1, m: 0, p: 0 }}>
          {actions.data?.map((action) => (
            <ActionCard key={action.id} action={action} />
          ))}
        </Box>
      </SectionState>
    </Box>
  );
}

/** The actions board: a column per status, unfinished ones overdue first, filtered by assignee or by team. */
export function ActionBoard() {
  const translate = useTranslate();
  const { people, isPending } = usePeople();
  const { teams, isPending: teamsPending } = useTeams();
  const [filter, setFilter] = useState<BoardFilter>({ assignee: null, team: null });
  const chosen = people.find((user) => user.id === filter.assignee) ?? null;
  const chosenTeam = teams.find((team) => team.id === filter.team) ?? null;
  return (
    <Box sx={{ py: 2 }} data-testid="action-board">
      <Title title={translate('resources.actions.name', { smart_count: 2 })} />
      <Box sx={{ mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <Autocomplete
          options={people}
          loading={isPending}
          value={chosen}
          getOptionLabel={(user) => user.username}
          onChange={(_, user) => setFilter({ assignee: user?.id ?? null, team: null })}
          sx={{ flex: '0 1 320px' }}
          renderInput={(params) => (
            <TextField {...params} size="small" label={translate('resources.actions.fields.assignee')} />
          )}
        />
        <Autocomplete
          options={teams}
          loading={teamsPending}
          value={chosenTeam}
          getOptionLabel={(team) => team.name}
          onChange={(_, team) => setFilter({ assignee: null, team: team?.id ?? null })}
          sx={{ flex: '0 1 320px' }}
          renderInput={(params) => (
            <TextField {...params} size="small" label={translate('resources.actions.fields.assignee_team')} />
          )}
        />
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          alignItems: 'start',
          gridTemplateColumns: {
            xs: '1fr',
            md: 'repeat(3, minmax(0, 1fr))',
            lg: 'repeat(5, minmax(0, 1fr))',
          },
        }}
      >
        {COLUMNS.map((status) => (
          <BoardColumn key={status} status={status} filter={filter} />
        ))}
      </Box>
    </Box>
  );
}
