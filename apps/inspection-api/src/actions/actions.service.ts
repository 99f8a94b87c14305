import { audited } from '../audit/audit-actor';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type Principal } from '../auth/tokens.service';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { existingIdsIn, SqlParameters } from '../database/sql';
import { localDate } from '../due/due-rules';
import { actionEvents } from '../events/event-rules';
import { EventOutbox } from '../events/event-outbox';
import {
  DrfException,
  type FieldErrors,
  isFieldErrors,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  validationError,
} from '../drf/exceptions';
import { type OrderingTerm } from '../drf/filters';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { type UploadedPart } from '../drf/request-input';
import { type ResourceRequest, type ResourceService } from '../drf/resource-routes';
import { type FieldValue, type Input, validateInput } from '../drf/serializer';
import { imageExtension } from '../media/image-type';
import { MediaStorage } from '../media/media-storage';
import { mediaUrlBase } from '../media/media-url';
import { actionPersonSql } from './action-assignment';
import {
  type ActionActor,
  type ActionAssignment,
  assignmentAfter,
  type ActionDecision,
  type ActionStatus,
  checkActionComment,
  checkActionCreate,
  checkActionWrite,
  type OpenActionOn,
  opensAction,
  priorityForRecord,
  actionOverdueSql,
} from './action-transitions';
import { ACTION_SCHEMA } from './action.schema';
import { ACTION_COMMENT_SCHEMA } from './action-comment.schema';
import { schemaJsonObject } from '../drf/resource-schema';
import { ACTION_COMMENT_FIELDS, ACTION_CREATE_FIELDS, ACTION_UPDATE_FIELDS } from './dto/action.dto';

/** The methods of an action's detail path: actions are history, never deleted (cancel one instead). */
export const ACTION_DETAIL_METHODS = ['GET', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** The Action representation of alias `a` (`ACTION_SCHEMA`'s fields); `$1` is the absolute media base URL, `$2` today's date. */
export const ACTION_JSON = schemaJsonObject(ACTION_SCHEMA, 'a');

/** An ActionComment's representation of alias `c` (`ACTION_COMMENT_SCHEMA`'s fields). */
const COMMENT_JSON = schemaJsonObject(ACTION_COMMENT_SCHEMA, 'c');

export interface ActionFilters {
  status?: string;
  assignee?: number;
  assigneeTeam?: number;
  /** A user's actions: assigned to them, or to a team they are a member of (`action-assignment.ts`). */
  assignedTo?: number;
  overdue?: boolean;
  record?: number;
  device?: number;
  priority?: string;
  ordering?: OrderingTerm[];
}

/** The fields `?ordering=` may name, and their columns (alias `a`): priority and status in their natural order. */
export const ACTION_ORDERING_COLUMNS: Record<string, string> = {
  id: 'a."id"',
  due_date: 'a."due_date"',
  priority: `(CASE a."priority" WHEN 'low' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END)`,
  status: `(CASE a."status" WHEN 'open' THEN 0 WHEN 'in_progress' THEN 1 WHEN 'done' THEN 2 WHEN 'verified' THEN 3 ELSE 4 END)`,
  created_at: 'a."created_at"',
  updated_at: 'a."updated_at"',
  // $2 is today's date in the list statement (actionPageSql): `-overdue` puts the overdue actions first.
  overdue: actionOverdueSql('$2'),
};

/** The ORDER BY of the actions list: the requested terms, then the id; newest first by default. */
function actionOrder(ordering: OrderingTerm[] | undefined): string {
  const terms = (ordering ?? []).map(
    (term) => `${ACTION_ORDERING_COLUMNS[term.field] ?? 'a."id"'}${term.descending ? ' DESC' : ''}`,
  );
  const last = ordering?.[ordering.length - 1];
  if (!ordering?.some((term) => term.field === 'id'))
    terms.push(`a."id"${!last || last.descending ? ' DESC' : ''}`);
  return terms.join(', ');
}

export function actionPageSql(
  mediaBase: string,
  today: string,
  filters: ActionFilters,
  limit: number,
  offset: number,
) {
  const parameters = new SqlParameters();
  parameters.add(mediaBase);
  const todayParameter = parameters.add(today);
  const conditions: string[] = [];
  if (filters.status !== undefined) conditions.push(`a."status" = ${parameters.add(filters.status)}`);
  if (filters.assignee !== undefined)
    conditions.push(`a."assignee_id" = ${parameters.add(filters.assignee)}`);
  if (filters.assigneeTeam !== undefined)
    conditions.push(`a."assignee_team_id" = ${parameters.add(filters.assigneeTeam)}`);
  if (filters.assignedTo !== undefined) {
    const user = parameters.add(filters.assignedTo);
    conditions.push(actionPersonSql('a."assignee_id"', 'a."assignee_team_id"', user));
  }
  if (filters.record !== undefined) conditions.push(`a."record_id" = ${parameters.add(filters.record)}`);
  if (filters.device !== undefined) conditions.push(`a."device_id" = ${parameters.add(filters.device)}`);
  if (filters.priority !== undefined) conditions.push(`a."priority" = ${parameters.add(filters.priority)}`);
  if (filters.overdue !== undefined)
    conditions.push(`${filters.overdue ? '' : 'NOT '}${actionOverdueSql(todayParameter)}`);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const order = actionOrder(filters.ordering);
  const sql = `SELECT (SELECT count(*) FROM "actions" a ${where})::int AS "count",
    COALESCE((SELECT json_agg(${ACTION_JSON} ORDER BY ${order}) FROM (SELECT * FROM "actions" a ${where} ORDER BY ${order} LIMIT ${parameters.add(limit)} OFFSET ${parameters.add(offset)}) a), '[]'::json) AS "results"`;
  return { sql, parameters: parameters.values };
}

type Database = DataSource | EntityManager;

/** The action's row as the rules and the change detection need it. */
interface ActionRow {
  status: ActionStatus;
  assignee_id: number | null;
  assignee_team_id: number | null;
  title: string;
  description: string;
  record_id: number | null;
  due_date: string | null;
  priority: string;
  close_out_note: string;
  close_out_photo: string | null;
}

/** Serializer field → column, and how the current row shows it (to tell which fields a write changes). */
const COLUMNS: Record<string, keyof ActionRow> = {
  title: 'title',
  description: 'description',
  record: 'record_id',
  assignee: 'assignee_id',
  assignee_team: 'assignee_team_id',
  due_date: 'due_date',
  priority: 'priority',
  status: 'status',
  close_out_note: 'close_out_note',
};

const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';
const NOT_AN_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

function refuse(decision: ActionDecision): void {
  if (decision.allowed) return;
  if (decision.status === 400) throw validationError(decision.errors);
  throw new DrfException(403, { detail: decision.detail });
}

/** The actor of a request, with the teams they are a member of (the rules need them for inspectors only). */
async function actorOf(db: Database, user: Principal | undefined): Promise<ActionActor> {
  // Every resource route is authenticated; a missing principal may do nothing.
  if (!user) return { userId: 0, role: 'inspector', teamIds: [] };
  if (user.role === 'supervisor') return { userId: user.userId, role: user.role, teamIds: [] };
  const rows: Array<{ team_id: number }> = await db.query(
    `SELECT "team_id" FROM "team_members" WHERE "user_id" = $1`,
    [user.userId],
  );
  return { userId: user.userId, role: user.role, teamIds: rows.map((row) => row.team_id) };
}

/** The assignment a write leaves, or its 400 (both a user and a team). */
function assignmentOf(current: ActionAssignment, values: Record<string, FieldValue>): ActionAssignment {
  const after = assignmentAfter(current, {
    ...('assignee' in values ? { assignee: values.assignee as number | null } : {}),
    ...('assignee_team' in values ? { assignee_team: values.assignee_team as number | null } : {}),
  });
  if ('errors' in after) throw validationError(after.errors);
  return after.assignment;
}

/** What a record that opened an action said, for its description. */
function recordDescription(value: string, note: string): string {
  return [value ? `Value: ${value}` : '', note ? `Note: ${note}` : ''].filter(Boolean).join('\n');
}

/**
 * Corrective actions: the resource (`/api/actions/`), its comments, and the action a check record opens by itself.
 * Who may do what is `action-transitions.ts`'s.
 */
@Injectable()
export class ActionsService implements ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly media: MediaStorage,
    private readonly environment: InspectionApiEnvironment,
    private readonly events: EventOutbox,
  ) {}

  /** Today in INSPECTION_TIME_ZONE (the due checks' calendar): actions due before it are overdue. */
  today(now = new Date()): string {
    return localDate(now, this.environment.INSPECTION_TIME_ZONE);
  }

  page(
    mediaBase: string,
    filters: ActionFilters,
    request: PageRequest,
  ): Promise<PageRows<unknown> & { page: number }> {
    const today = this.today();
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = actionPageSql(mediaBase, today, filters, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  findOne(id: number, request: ResourceRequest): Promise<unknown> {
    return this.representation(this.dataSource, mediaUrlBase(request.origin), id);
  }

  private async representation(db: Database, mediaBase: string, id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await db.query(
      `SELECT ${ACTION_JSON} AS "body" FROM "actions" a WHERE a."id" = $3`,
      [mediaBase, this.today(), id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  private async validate(db: Database, input: Input, fields: typeof ACTION_CREATE_FIELDS, partial: boolean) {
    const { values, errors } = await validateInput(input, fields, {
      partial,
      existingIds: existingIdsIn(db),
    });
    return { values, errors };
  }

  /** POST (supervisors): a new open action, from a record or not. */
  async create(readInput: () => Input, request: ResourceRequest): Promise<unknown> {
    refuse(checkActionCreate(await actorOf(this.dataSource, request.user)));
    const { values, errors } = await this.validate(this.dataSource, readInput(), ACTION_CREATE_FIELDS, false);
    if (isFieldErrors(errors)) throw validationError(errors);
    const assignment = assignmentOf({ assigneeId: null, assigneeTeamId: null }, values);
    const id = await audited(this.dataSource, request.user, (manager) =>
      this.insert(manager, {
        title: values.title as string,
        description: (values.description as string | undefined) ?? '',
        record: (values.record as number | null | undefined) ?? null,
        ...assignment,
        dueDate: (values.due_date as string | null | undefined) ?? null,
        priority: (values.priority as string | undefined) ?? 'medium',
        by: request.user?.username ?? '',
      }),
    );
    return this.representation(this.dataSource, mediaUrlBase(request.origin), id);
  }

  private async insert(
    db: EntityManager,
    action: {
      title: string;
      description: string;
      record: number | null;
      assigneeId: number | null;
      assigneeTeamId: number | null;
      dueDate: string | null;
      priority: string;
      by: string;
    },
  ): Promise<number> {
    const rows: Array<{ id: number }> = await db.query(
      `INSERT INTO "actions" ("title", "description", "record_id", "device_id", "item_id", "assignee_id", "assignee_team_id", "due_date", "priority", "created_by")
       VALUES ($1, $2, $3, (SELECT r."device_id" FROM "check_records" r WHERE r."id" = $3), (SELECT r."item_id" FROM "check_records" r WHERE r."id" = $3), $4, $8, $5, $6, $7)
       RETURNING "id"`,
      [
        action.title,
        action.description,
        action.record,
        action.assigneeId,
        action.dueDate,
        action.priority,
        action.by,
        action.assigneeTeamId,
      ],
    );
    const id = rows[0]?.id;
    await db.query(
      `INSERT INTO "action_transitions" ("action_id", "from_status", "to_status", "by_user") VALUES ($1, NULL, 'open', $2)`,
      [id, action.by],
    );
    await this.events.emit(
      db,
      actionEvents(
        { status: null, assigneeId: null, assigneeTeamId: null },
        { status: 'open', assigneeId: action.assigneeId, assigneeTeamId: action.assigneeTeamId },
      ),
      id,
    );
    return id;
  }

  /**
   * The action a new check record opens by itself, in the record's transaction: when its plan's `open_action_on`
   * says so for its status (without a plan: the active plans covering its device, the strictest; with none, on
   * fail). Unassigned, no due date; a failure is high priority, a warning medium.
   */
  async openForRecord(db: EntityManager, recordId: number, by: string): Promise<void> {
    const rows: Array<{
      status: string;
      settings: OpenActionOn[];
      title: string;
      value: string;
      note: string;
    }> = await db.query(
      `SELECT r."status",
          CASE WHEN r."plan_id" IS NOT NULL THEN ARRAY(SELECT p."open_action_on"::text FROM "check_plans" p WHERE p."id" = r."plan_id")
            ELSE ARRAY(SELECT p."open_action_on"::text FROM "check_plans" p JOIN "check_plan_devices" pd ON pd."plan_id" = p."id"
              WHERE pd."device_id" = r."device_id" AND p."active" AND p."archived_at" IS NULL) END AS "settings",
          left(COALESCE(i."name" || ' — ', '') || d."name" || ' (' || d."code" || '): ' || r."status", 200) AS "title",
          r."value", r."note"
        FROM "check_records" r JOIN "devices" d ON d."id" = r."device_id" LEFT JOIN "check_items" i ON i."id" = r."item_id"
        WHERE r."id" = $1`,
      [recordId],
    );
    const record = rows[0];
    if (!record || !opensAction(record.status, record.settings)) return;
    await this.insert(db, {
      title: record.title,
      description: recordDescription(record.value, record.note),
      record: recordId,
      assigneeId: null,
      assigneeTeamId: null,
      dueDate: null,
      priority: priorityForRecord(record.status),
      by,
    });
  }

  /** The close-out photo from multipart input: a file part sets it, an empty text field clears it. */
  private photoChange(input: Input, files: Map<string, UploadedPart>, errors: FieldErrors) {
    if (input.kind !== 'form') return undefined; // read-only in JSON bodies: ignored
    const part = files.get('close_out_photo');
    if (part) {
      const limit = this.environment.INSPECTION_MAX_PHOTO_BYTES;
      if (part.size > limit)
        throw payloadTooLarge(`The close_out_photo exceeds the limit of ${limit} bytes.`);
      if (part.size === 0) errors.close_out_photo = ['The submitted file is empty.'];
      else {
        const extension = imageExtension(part.buffer);
        if (!extension) errors.close_out_photo = [NOT_AN_IMAGE];
        else return { content: part.buffer, extension };
      }
      return undefined;
    }
    const text = input.data.get('close_out_photo');
    if (text === undefined) return undefined;
    if (text[text.length - 1] === '') return null;
    errors.close_out_photo = [NOT_A_FILE];
    return undefined;
  }

  /**
   * PUT / PATCH: the rules' order is DRF's — who may write to the action at all (403), the fields' validation (400),
   * then what this write changes (a supervisor's field, a move that does not exist, a verification: 403/400).
   */
  async update(
    id: number,
    readInput: () => Input,
    partial: boolean,
    request: ResourceRequest,
  ): Promise<unknown> {
    const actor = await actorOf(this.dataSource, request.user);
    const current = await this.row(this.dataSource, id);
    refuse(checkActionWrite(current, [], undefined, actor));
    const input = readInput();
    const { values, errors } = await this.validate(this.dataSource, input, ACTION_UPDATE_FIELDS, partial);
    const photo =
      isFieldErrors(errors) && 'non_field_errors' in errors
        ? undefined
        : this.photoChange(input, request.files(), errors);
    if (isFieldErrors(errors)) throw validationError(errors);
    const stored = photo && (await this.media.save('photos', photo.content, photo.extension));
    let previousPhoto: string | null = null;
    try {
      await audited(this.dataSource, request.user, async (manager) => {
        const row = await this.row(manager, id, true);
        const assignment = assignmentOf(row, values);
        values.assignee = assignment.assigneeId;
        values.assignee_team = assignment.assigneeTeamId;
        const changed = Object.keys(values).filter((field) => !same(values[field], row[COLUMNS[field]]));
        if (photo !== undefined) changed.push('close_out_photo');
        const to = values.status as ActionStatus | undefined;
        refuse(checkActionWrite(row, changed, to, actor, assignment));
        if (!changed.length) return;
        const assignments: string[] = [];
        const parameters = new SqlParameters();
        parameters.add(id);
        for (const field of changed) {
          if (field === 'close_out_photo') {
            assignments.push(`"close_out_photo" = ${parameters.add(stored ?? null)}`);
            previousPhoto = row.close_out_photo;
            continue;
          }
          const column = COLUMNS[field] as string;
          const value = parameters.add(values[field]);
          assignments.push(`"${column}" = ${value}`);
          if (field === 'record')
            assignments.push(
              `"device_id" = (SELECT r."device_id" FROM "check_records" r WHERE r."id" = ${value})`,
              `"item_id" = (SELECT r."item_id" FROM "check_records" r WHERE r."id" = ${value})`,
            );
        }
        await manager.query(
          `UPDATE "actions" SET ${assignments.join(', ')}, "updated_at" = now() WHERE "id" = $1`,
          parameters.values,
        );
        if (to !== undefined && to !== row.status)
          await manager.query(
            `INSERT INTO "action_transitions" ("action_id", "from_status", "to_status", "by_user") VALUES ($1, $2, $3, $4)`,
            [id, row.status, to, request.user?.username ?? ''],
          );
        await this.events.emit(manager, actionEvents(row, { status: to ?? row.status, ...assignment }), id);
      });
    } catch (error) {
      if (stored) await this.media.removeAll([stored]);
      throw error;
    }
    // The replaced or cleared photo's file, once the row no longer points at it.
    if (previousPhoto) await this.media.removeAll([previousPhoto]);
    return this.representation(this.dataSource, mediaUrlBase(request.origin), id);
  }

  private async row(db: Database, id: number, lock = false): Promise<ActionRow & ActionAssignment> {
    const rows: ActionRow[] = await db.query(
      `SELECT "status", "assignee_id", "assignee_team_id", "title", "description", "record_id", to_char("due_date", 'YYYY-MM-DD') AS "due_date", "priority", "close_out_note", "close_out_photo"
       FROM "actions" WHERE "id" = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound();
    return { ...row, assigneeId: row.assignee_id, assigneeTeamId: row.assignee_team_id };
  }

  /** Actions are history: DELETE is 405 (cancel an action instead). */
  remove(): Promise<void> {
    return Promise.reject(methodNotAllowed('DELETE', ACTION_DETAIL_METHODS));
  }

  /** `GET /api/actions/{id}/comments/`: oldest first, a bare array (404 for an action that does not exist). */
  async comments(id: number): Promise<unknown> {
    await this.row(this.dataSource, id);
    const rows: Array<{ body: unknown }> = await this.dataSource.query(
      `SELECT COALESCE((SELECT json_agg(${COMMENT_JSON} ORDER BY c."id") FROM "action_comments" c WHERE c."action_id" = $1), '[]'::json) AS "body"`,
      [id],
    );
    return rows[0]?.body ?? [];
  }

  /** `POST /api/actions/{id}/comments/`: the assignee or a supervisor, not on a verified action. */
  async addComment(id: number, readInput: () => Input, user: Principal | undefined): Promise<unknown> {
    refuse(checkActionComment(await this.row(this.dataSource, id), await actorOf(this.dataSource, user)));
    const { values, errors } = await this.validate(
      this.dataSource,
      readInput(),
      ACTION_COMMENT_FIELDS,
      false,
    );
    if (isFieldErrors(errors)) throw validationError(errors);
    const rows: Array<{ body: unknown }> = await audited(this.dataSource, user, (manager) =>
      manager.query(
        `WITH c AS (INSERT INTO "action_comments" ("action_id", "text", "author") VALUES ($1, $2, $3) RETURNING *)
         SELECT ${COMMENT_JSON} AS "body" FROM c`,
        [id, values.text, user?.username ?? ''],
      ),
    );
    return rows[0]?.body;
  }
}

/** Whether a validated value equals the row's (ids, dates and texts compare as text; null only equals null). */
function same(value: FieldValue | undefined, current: string | number | null): boolean {
  if (value === null || current === null) return value === current;
  return String(value) === String(current);
}
