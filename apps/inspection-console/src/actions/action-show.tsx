import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  List as MuiList,
  ListItem,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import {
  Show,
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { type ConsoleDataProvider } from '../api/data-provider';
import { assigneeText } from './action-assignee';
import { AuditHistory } from '../audit/audit-history';
import { type ActionStatus, type CheckItem, type CorrectiveAction, type Device } from '../api/resources';
import { FactList } from '../layout/fact-list';
import { SectionState } from '../layout/section-state';
import { SUPERVISOR_MOVES } from './action-moves';
import { ActionStatusChip, OverdueChip } from './action-status-chip';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The label of a move: "Start", "Rework", "Mark done", "Verify", "Cancel", "Reopen", "Back to open". */
function moveKey(from: ActionStatus, to: ActionStatus): string {
  if (to === 'in_progress') return from === 'done' ? 'rework' : 'start';
  if (to === 'open') return from === 'cancelled' ? 'reopen' : 'back_to_open';
  return to;
}

/** The moves the rules allow the signed-in supervisor; "Mark done" asks for a close-out note first. */
function Transitions({ action }: { action: CorrectiveAction }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate<CorrectiveAction>();
  const [closing, setClosing] = useState(false);
  const [note, setNote] = useState(action.close_out_note);
  const moves = SUPERVISOR_MOVES[action.status];
  const move = (to: ActionStatus, extra: Partial<CorrectiveAction> = {}) =>
    update(
      'actions',
      { id: action.id, data: { status: to, ...extra }, previousData: action },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setClosing(false);
          notify('console.actions.moved', {
            type: 'info',
            messageArgs: { status: translate(`console.action_status.${to}`) },
          });
        },
        onError: (error) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
      },
    );
  if (!moves.length)
    return (
      <Typography color="text.secondary" data-testid="action-final">
        {translate(action.status === 'verified' ? 'console.actions.read_only' : 'console.actions.no_moves')}
      </Typography>
    );
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} data-testid="action-moves">
      {moves.map((to) => (
        <Button
          key={to}
          variant={to === 'cancelled' || to === 'open' ? 'outlined' : 'contained'}
          color={to === 'cancelled' ? 'inherit' : 'primary'}
          disabled={isPending}
          onClick={() => (to === 'done' ? setClosing(true) : void move(to))}
        >
          {translate(`console.actions.move.${moveKey(action.status, to)}`)}
        </Button>
      ))}
      <Dialog
        open={closing}
        onClose={() => setClosing(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="close-out-title"
      >
        <Box
          component="form"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            void move('done', { close_out_note: note.trim() });
          }}
        >
          <DialogTitle id="close-out-title">{translate('console.actions.move.done')}</DialogTitle>
          <DialogContent>
            <TextField
              label={translate('resources.actions.fields.close_out_note')}
              helperText={translate('console.actions.close_out_help')}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              multiline
              minRows={3}
              fullWidth
              required
              autoFocus
              sx={{ mt: 1 }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setClosing(false)}>{translate('ra.action.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={isPending || !note.trim()}>
              {translate('console.actions.move.done')}
            </Button>
          </DialogActions>
        </Box>
      </Dialog>
    </Box>
  );
}

/** The comments, oldest first, and a box to add one (not on a verified action). */
function Comments({ action }: { action: CorrectiveAction }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const queryClient = useQueryClient();
  const comments = useQuery({
    queryKey: ['actions', action.id, 'comments'],
    queryFn: () => dataProvider.actionComments(action.id),
  });
  const send = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    try {
      await dataProvider.addActionComment(action.id, text.trim());
      setText('');
      await comments.refetch();
      await queryClient.invalidateQueries({ queryKey: ['audit', 'action', action.id] });
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setSending(false);
    }
  };
  return (
    <Section title={translate('console.actions.comments')}>
      <SectionState
        isPending={comments.isPending}
        error={comments.error}
        retry={() => void comments.refetch()}
        empty={comments.data?.length === 0}
        emptyText={translate('console.actions.no_comments')}
      >
        <MuiList dense disablePadding data-testid="action-comments">
          {comments.data?.map((comment) => (
            <ListItem key={comment.id} disableGutters>
              <ListItemText
                primary={comment.text}
                secondary={`${comment.author} · ${dateTime.format(new Date(comment.created_at))}`}
                sx={{ '& .MuiListItemText-primary': { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } }}
              />
            </ListItem>
          ))}
        </MuiList>
      </SectionState>
      {action.status !== 'verified' && (
        <Box
          component="form"
          onSubmit={(event) => void send(event)}
          sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}
        >
          <TextField
            label={translate('console.actions.comment')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            multiline
            size="small"
            sx={{ flex: '1 1 240px' }}
            inputProps={{ maxLength: 5000 }}
          />
          <Button type="submit" variant="outlined" disabled={sending || !text.trim()}>
            {translate('console.actions.send_comment')}
          </Button>
        </Box>
      )}
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ mt: 2 }} component="section">
      <CardContent>
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function ActionDetails() {
  const translate = useTranslate();
  const action = useRecordContext<CorrectiveAction>();
  const device = useGetOne<Device>('devices', { id: action?.device ?? 0 }, { enabled: !!action?.device });
  const item = useGetOne<CheckItem>('items', { id: action?.item ?? 0 }, { enabled: !!action?.item });
  if (!action) return null;
  const field = (name: string) => translate(`resources.actions.fields.${name}`);
  return (
    <Box sx={{ p: { xs: 2, sm: 3 } }} data-testid="action-page">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere', mr: 1 }}>
          {action.title}
        </Typography>
        <ActionStatusChip status={action.status} />
        {action.overdue && <OverdueChip />}
        {action.status !== 'verified' && (
          <Button
            component={RouterLink}
            to={`/actions/${action.id}`}
            startIcon={<EditIcon />}
            sx={{ ml: 'auto' }}
          >
            {translate('console.actions.edit')}
          </Button>
        )}
      </Box>
      <FactList
        facts={[
          [field('assignee'), assigneeText(action, translate)],
          [field('due_date'), action.due_date ?? '—'],
          [field('priority'), translate(`console.priority.${action.priority}`)],
          [
            field('record'),
            action.record === null ? (
              '—'
            ) : (
              <Link component={RouterLink} to={`/records/${action.record}/show`} underline="hover">
                {[device.data ? `${device.data.code} · ${device.data.name}` : '', item.data?.name ?? '']
                  .filter(Boolean)
                  .join(' — ') || translate('console.records.title', { id: action.record })}
              </Link>
            ),
          ],
          [field('description'), action.description || '—'],
          [
            field('created_by'),
            `${action.created_by || translate('console.actions.by_record')} · ${dateTime.format(new Date(action.created_at))}`,
          ],
          [field('close_out_note'), action.close_out_note || '—'],
          ...(action.close_out_photo
            ? ([
                [
                  field('close_out_photo'),
                  <Link href={action.close_out_photo} target="_blank" rel="noopener" key="photo">
                    <img
                      src={action.close_out_photo}
                      alt={translate('console.actions.close_out_photo_alt')}
                      width={160}
                      height={160}
                      style={{ objectFit: 'cover', display: 'block' }}
                    />
                  </Link>,
                ],
              ] as [string, ReactNode][])
            : []),
        ]}
      />
      <Box sx={{ mt: 2 }}>
        <Transitions action={action} />
      </Box>
      <Comments action={action} />
      <AuditHistory resource="action" id={action.id} version={action.updated_at} />
    </Box>
  );
}

function ActionTitle() {
  const translate = useTranslate();
  const action = useRecordContext<CorrectiveAction>();
  return <span>{translate('console.actions.title', { id: action?.id ?? '' })}</span>;
}

/** A corrective action: what, who and by when, its moves, its comments and its history (the audit trail). */
export function ActionShow() {
  return (
    <Show title={<ActionTitle />} actions={false}>
      <ActionDetails />
    </Show>
  );
}
