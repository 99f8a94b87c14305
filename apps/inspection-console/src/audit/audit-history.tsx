import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  type Identifier,
  useDataProvider,
  useGetOne,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { type AuditEntry, type AuditResource, type Device, type Team } from '../api/resources';
import { SectionState } from '../layout/section-state';
import { usePeople } from '../users/use-people';
import { AUDIT_RESOURCE_NAMES, auditValueText, shownChanges } from './audit-format';

type Translate = (key: string, options?: object) => string;

/** A device named by its code (a plan's `device_added` / `device_removed`); an archived one by its id. */
function DeviceName({ id }: { id: number }) {
  const device = useGetOne<Device>('devices', { id }, { retry: false });
  return <>{device.data ? `${device.data.code} · ${device.data.name}` : `#${id}`}</>;
}

/** A team named by its name (a plan's `team_added` / `team_removed`); a deleted one by its id. */
function TeamName({ id }: { id: number }) {
  const team = useGetOne<Team>('teams', { id }, { retry: false });
  return <>{team.data ? team.data.name : `#${id}`}</>;
}

function fieldLabel(resource: AuditResource, field: string, translate: Translate): string {
  const fallback = field.replace(/_/g, ' ');
  return translate(`resources.${AUDIT_RESOURCE_NAMES[resource]}.fields.${field}`, {
    _: fallback.charAt(0).toUpperCase() + fallback.slice(1),
  });
}

/** The lines under an entry's event: each changed field before → after, a comment's text, a device added. */
function EntryDetails({
  entry,
  translate,
  dateTime,
  usernames,
}: {
  entry: AuditEntry;
  translate: Translate;
  dateTime: Intl.DateTimeFormat;
  usernames: Map<number, string>;
}) {
  const value = (field: string, raw: unknown) => {
    if (field === 'assignee' && typeof raw === 'number') return usernames.get(raw) ?? `#${raw}`;
    return auditValueText(entry.resource, field, raw, translate, dateTime);
  };
  if (entry.event === 'commented')
    return (
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        “{value('text', entry.after?.text)}”
      </Typography>
    );
  if (entry.event === 'member_added' || entry.event === 'member_removed') {
    const member = (entry.after ?? entry.before)?.member;
    return typeof member === 'number' ? (
      <Typography variant="body2">{value('assignee', member)}</Typography>
    ) : null;
  }
  if (entry.event === 'assignee_added' || entry.event === 'assignee_removed') {
    const assignee = (entry.after ?? entry.before)?.assignee;
    return typeof assignee === 'number' ? (
      <Typography variant="body2">{value('assignee', assignee)}</Typography>
    ) : null;
  }
  if (entry.event === 'team_added' || entry.event === 'team_removed') {
    const team = (entry.after ?? entry.before)?.assignee_team;
    return typeof team === 'number' ? (
      <Typography variant="body2">
        <TeamName id={team} />
      </Typography>
    ) : null;
  }
  if (entry.event === 'device_added' || entry.event === 'device_removed') {
    const device = (entry.after ?? entry.before)?.device;
    return typeof device === 'number' ? (
      <Typography variant="body2">
        <DeviceName id={device} />
      </Typography>
    ) : null;
  }
  const fields = shownChanges(entry);
  if (!fields.length) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {fields.map((field) => (
        <Typography component="li" variant="body2" key={field} sx={{ overflowWrap: 'anywhere' }}>
          {field === 'password_changed' ? (
            translate('console.users.password_changed')
          ) : (
            <>
              <Box component="span" sx={{ color: 'text.secondary' }}>
                {translate('console.label', { label: fieldLabel(entry.resource, field, translate) })}
              </Box>
              {entry.event === 'created'
                ? value(field, entry.after?.[field])
                : `${value(field, entry.before?.[field])} → ${value(field, entry.after?.[field])}`}
            </>
          )}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * A resource's audit trail as a compact "History" section: newest first, who, when, what changed (before → after)
 * in the console's language and the browser's time zone, ten at a time with "Show older changes".
 */
export function AuditHistory({
  resource,
  id,
  version,
}: {
  resource: AuditResource;
  id: Identifier | undefined;
  /** Changes when the resource does (its `updated_at`), so the section reads the trail again. */
  version?: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { people } = usePeople();
  const usernames = useMemo(() => new Map(people.map((user) => [user.id, user.username])), [people]);
  const dateTime = useMemo(
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    [locale],
  );
  const trail = useInfiniteQuery({
    queryKey: ['audit', resource, id, version],
    queryFn: ({ pageParam }) => dataProvider.auditTrail(resource, id ?? 0, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
    enabled: id !== undefined && id !== null,
  });
  const entries = trail.data?.pages.flatMap((page) => page.results) ?? [];
  const total = trail.data?.pages[0]?.count ?? 0;
  const headingId = `history-${resource}-${String(id)}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <CardContent>
        <Typography id={headingId} component="h2" variant="h6" sx={{ mb: 1 }}>
          {translate('console.audit.title')}
          {total > 0 && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              ({total})
            </Typography>
          )}
        </Typography>
        <SectionState
          isPending={trail.isPending}
          error={trail.error}
          retry={() => void trail.refetch()}
          empty={entries.length === 0}
          emptyText={translate('console.audit.empty')}
        >
          <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="audit-history">
            {entries.map((entry) => (
              <Box
                component="li"
                key={entry.id}
                sx={{ py: 0.75, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}
              >
                <Typography variant="body2">
                  <Box component="span" sx={{ fontWeight: 600 }}>
                    {translate(`console.audit.event.${entry.event}`)}
                  </Box>
                  <Box component="span" sx={{ color: 'text.secondary' }}>
                    {` · ${entry.actor_username || translate('console.audit.system')} · `}
                    <time dateTime={entry.at}>{dateTime.format(new Date(entry.at))}</time>
                  </Box>
                </Typography>
                <EntryDetails entry={entry} translate={translate} dateTime={dateTime} usernames={usernames} />
              </Box>
            ))}
          </Box>
          {trail.hasNextPage && (
            <Button
              size="small"
              sx={{ mt: 1 }}
              disabled={trail.isFetchingNextPage}
              onClick={() => void trail.fetchNextPage()}
            >
              {translate('console.audit.older')}
            </Button>
          )}
        </SectionState>
      </CardContent>
    </Card>
  );
}

/** The History section of the record in context (an edit page's device, plan or user), under its form. */
export function RecordAuditHistory({ resource }: { resource: AuditResource }) {
  const record = useRecordContext<{ id: Identifier; updated_at?: string }>();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <AuditHistory resource={resource} id={record.id} version={record.updated_at} />
    </Box>
  );
}
