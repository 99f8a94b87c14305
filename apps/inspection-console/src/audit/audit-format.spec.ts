import { type AuditEntry } from '../api/resources';
import { auditValueText, shownChanges, valueKey } from './audit-format';

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  resource: 'action',
  resource_id: 7,
  event: 'updated',
  actor: 1,
  actor_username: 'supervisor',
  at: '2026-11-27T05:00:00.000Z',
  changed: [],
  before: null,
  after: null,
  ...overrides,
});

/** A translate that shows the key it was asked for (or the fallback `_`). */
const translate = (key: string, options?: object) =>
  key.startsWith('console.') || key.startsWith('ra.') ? `<${key}>` : ((options as { _?: string })?._ ?? key);
const utc = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

describe('the audit trail as a person reads it', () => {
  it('lists what a creation was given: values set, without bookkeeping, references the page shows, or blanks', () => {
    const created = entry({
      event: 'created',
      changed: [],
      after: {
        id: 7,
        title: 'Failure: PUMP-001 — Outlet pressure',
        description: '',
        record: 12,
        device: 3,
        item: 4,
        assignee: null,
        due_date: null,
        priority: 'high',
        status: 'open',
        close_out_note: '',
        created_by: 'inspection-bot',
        created_at: '2026-11-27T05:00:00Z',
        updated_at: '2026-11-27T05:00:00Z',
      },
    });
    expect(shownChanges(created)).toEqual(['title', 'priority', 'status']);
    expect(shownChanges(entry({ event: 'created', after: null }))).toEqual([]);
  });

  it('shows the changed fields of an update, without the bookkeeping ones', () => {
    expect(shownChanges(entry({ changed: ['assignee', 'due_date', 'updated_at'] }))).toEqual([
      'assignee',
      'due_date',
    ]);
    expect(
      shownChanges(entry({ resource: 'user', changed: ['password_changed', 'tokens_valid_after'] })),
    ).toEqual(['password_changed']);
    // The event says it all: created, archived (archived_at), restored, commented.
    expect(shownChanges(entry({ event: 'archived', changed: ['archived_at'] }))).toEqual([]);
    expect(shownChanges(entry({ event: 'created', changed: [] }))).toEqual([]);
  });

  it('names coded values in words of the resource', () => {
    expect(valueKey('action', 'status')).toBe('console.action_status');
    expect(valueKey('record', 'status')).toBe('console.status');
    expect(valueKey('plan', 'open_action_on')).toBe('console.open_action_on');
    expect(auditValueText('action', 'status', 'in_progress', translate, utc)).toBe(
      '<console.action_status.in_progress>',
    );
    expect(auditValueText('plan', 'frequency', 'weekly', translate, utc)).toBe('<console.frequency.weekly>');
  });

  it('writes nothing as a dash, booleans as yes / no, timestamps in the local time, long text shortened', () => {
    expect(auditValueText('action', 'due_date', null, translate, utc)).toBe('—');
    expect(auditValueText('action', 'note', '', translate, utc)).toBe('—');
    expect(auditValueText('user', 'is_active', false, translate, utc)).toBe('<ra.boolean.false>');
    // PostgreSQL's timestamp text: as jsonb writes it (the trail), and as psql prints it.
    expect(auditValueText('record', 'checked_at', '2026-11-27T13:04:00.123456+08:00', translate, utc)).toBe(
      '27 Nov 2026, 05:04',
    );
    expect(auditValueText('record', 'checked_at', '2026-11-27 05:04:00+00', translate, utc)).toBe(
      '27 Nov 2026, 05:04',
    );
    expect(auditValueText('action', 'due_date', '2026-12-01', translate, utc)).toBe('2026-12-01');
    const long = auditValueText('action', 'description', 'x'.repeat(500), translate, utc);
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });
});
