import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type CheckRecord, type DueRow } from '../api/resources';

/** Today's numbers refresh every minute while the page is open. */
const REFRESH_MS = 60_000;

export function useTodaySummary() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['due-summary'],
    queryFn: () => dataProvider.dueSummary(),
    refetchInterval: REFRESH_MS,
  });
}

export function useTrend() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['record-statistics', 'day'],
    queryFn: () => dataProvider.recordStatistics({ interval: 'day' }),
    refetchInterval: REFRESH_MS,
  });
}

/** Open checks: overdue first, then due (the first 10 of each). */
export function useOpenChecks() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['due', 'open'],
    queryFn: async () => {
      const page = (status: string) =>
        dataProvider.getList<DueRow & { id: string }>('due', {
          filter: { status },
          pagination: { page: 1, perPage: 10 },
          sort: { field: 'id', order: 'ASC' },
        });
      const [overdue, due] = await Promise.all([page('overdue'), page('due')]);
      return { rows: [...overdue.data, ...due.data], total: (overdue.total ?? 0) + (due.total ?? 0) };
    },
    refetchInterval: REFRESH_MS,
  });
}

/** The latest warn and fail records: the first page of each, newest first (`ordering=-checked_at`). */
export function useLatestFindings(limit = 6) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['records', 'latest-findings', limit],
    queryFn: async () => {
      const latest = async (status: 'warn' | 'fail'): Promise<CheckRecord[]> =>
        (
          await dataProvider.getList<CheckRecord>('records', {
            filter: { status },
            pagination: { page: 1, perPage: limit },
            sort: { field: 'checked_at', order: 'DESC' },
          })
        ).data;
      const [warn, fail] = await Promise.all([latest('warn'), latest('fail')]);
      return [...warn, ...fail].sort((a, b) => b.checked_at.localeCompare(a.checked_at)).slice(0, limit);
    },
    refetchInterval: REFRESH_MS,
  });
}
