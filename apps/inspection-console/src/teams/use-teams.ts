import { useGetList } from 'react-admin';
import { type Team } from '../api/resources';

/** The teams (`/api/teams/`), by name, for pickers. */
export function useTeams() {
  const { data = [], isPending } = useGetList<Team>('teams', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const teams = [...data].sort((a, b) => a.name.localeCompare(b.name));
  return { teams, isPending };
}
