import { useGetList } from 'react-admin';
import { type ConsoleUser } from '../api/resources';

/** The people (`/api/users/`: service accounts are not among them), by username, for pickers. */
export function usePeople() {
  const { data = [], isPending } = useGetList<ConsoleUser>('users', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const people = [...data].sort((a, b) => a.username.localeCompare(b.username));
  return { people, isPending };
}
