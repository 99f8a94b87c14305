import { auditActor, audited } from '../audit/audit-actor';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ActionsService } from '../actions/actions.service';
import { recordEvents } from '../events/event-rules';
import { EventOutbox } from '../events/event-outbox';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import {
  type FieldErrors,
  isFieldErrors,
  notFound,
  payloadTooLarge,
  validationError,
} from '../drf/exceptions';
import { type FieldSpec, type Input, validateInput } from '../drf/serializer';
import { type OrderingTerm } from '../drf/filters';
import { type PageRequest, paginate, type PageRows } from '../drf/pagination';
import { type UploadedPart } from '../drf/request-input';
import { type ResourceRequest, type ResourceService } from '../drf/resource-routes';
import { existingIdsIn, SqlParameters, sqlState } from '../database/sql';
import { imageExtension, safeExtension } from '../media/image-type';
import { type MediaKind, MediaStorage } from '../media/media-storage';
import { mediaUrlBase } from '../media/media-url';
import { CheckRecordEntity } from './check-record.entity';
import { isOutOfRange, type ItemDefinition } from '../items/item-type';
import { fixedCheckedBy, recordFieldsFor } from './checked-by';
import { CHECK_RECORD_FIELDS } from './dto/check-record.dto';
import { CHECK_RECORD_SCHEMA } from './check-record.schema';
import { schemaJsonObject } from '../drf/resource-schema';
import { requestFingerprint } from '../idempotency/idempotency-key';
import { IdempotencyService, type WriteDatabase, type WriteResult } from '../idempotency/idempotency.service';
import {
  conditionNeedsItem,
  holdUnanswered,
  UNANSWERED_FIELD,
  unansweredConditionOf,
} from './unanswered-condition';

/** The CheckRecord representation of alias `r`; `$1` is the absolute media base URL. */
export const RECORD_JSON = schemaJsonObject(CHECK_RECORD_SCHEMA, 'r');

export interface RecordFilters {
  device?: number;
  plan?: number;
  item?: number;
  status?: string;
  checkedBy?: string;
  checkedAfter?: string;
  checkedBefore?: string;
  /** `?out_of_range=true|false`. */
  outOfRange?: boolean;
  /** `?ordering=` (DRF's OrderingFilter); empty: the default, newest first (`RECORD_DEFAULT_ORDERING`). */
  ordering?: OrderingTerm[];
}

/** The fields `?ordering=` may name, and their columns (alias `r`). */
export const RECORD_ORDERING_COLUMNS: Record<string, string> = {
  id: 'r."id"',
  checked_at: 'r."checked_at"',
  status: 'r."status"',
  checked_by: 'r."checked_by"',
  device: 'r."device_id"',
  plan: 'r."plan_id"',
  item: 'r."item_id"',
};

/** The records' default order (the view's `ordering`, DRF's OrderingFilter default): newest first. */
export const RECORD_DEFAULT_ORDERING: readonly OrderingTerm[] = [{ field: 'checked_at', descending: true }];

/**
 * The ORDER BY of the records list and its export: the requested terms (or, without a valid one, the default:
 * newest first), then the id (in the last term's direction) so pages never overlap.
 */
export function recordOrder(filters: RecordFilters): string {
  const ordering = filters.ordering?.length ? filters.ordering : RECORD_DEFAULT_ORDERING;
  const terms = ordering.map(
    (term) => `${RECORD_ORDERING_COLUMNS[term.field] ?? 'r."id"'}${term.descending ? ' DESC' : ''}`,
  );
  const last = ordering[ordering.length - 1];
  if (!ordering.some((term) => term.field === 'id')) terms.push(`r."id"${last?.descending ? ' DESC' : ''}`);
  return terms.join(', ');
}

/** The WHERE clause of the records list and its CSV export (alias `r`). */
export function recordConditions(filters: RecordFilters, parameters: SqlParameters): string {
  const conditions: string[] = [];
  if (filters.device !== undefined) conditions.push(`r."device_id" = ${parameters.add(filters.device)}`);
  if (filters.plan !== undefined) conditions.push(`r."plan_id" = ${parameters.add(filters.plan)}`);
  if (filters.item !== undefined) conditions.push(`r."item_id" = ${parameters.add(filters.item)}`);
  if (filters.status !== undefined) conditions.push(`r."status" = ${parameters.add(filters.status)}`);
  if (filters.checkedBy !== undefined)
    conditions.push(`r."checked_by" = ${parameters.add(filters.checkedBy)}`);
  if (filters.checkedAfter !== undefined)
    conditions.push(`r."checked_at" >= ${parameters.add(filters.checkedAfter)}::timestamptz`);
  if (filters.checkedBefore !== undefined)
    conditions.push(`r."checked_at" <= ${parameters.add(filters.checkedBefore)}::timestamptz`);
  if (filters.outOfRange !== undefined)
    conditions.push(`r."out_of_range" = ${parameters.add(filters.outOfRange)}`);
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

export function recordPageSql(mediaBase: string, filters: RecordFilters, limit: number, offset: number) {
  const parameters = new SqlParameters();
  parameters.add(mediaBase);
  const where = recordConditions(filters, parameters);
  const order = recordOrder(filters);
  const sql = `SELECT (SELECT count(*) FROM "check_records" r ${where})::int AS "count",
    COALESCE((SELECT json_agg(${RECORD_JSON} ORDER BY ${order}) FROM (SELECT * FROM "check_records" r ${where} ORDER BY ${order} LIMIT ${parameters.add(limit)} OFFSET ${parameters.add(offset)}) r), '[]'::json) AS "results"`;
  return { sql, parameters: parameters.values };
}

const COLUMNS: Record<string, keyof CheckRecordEntity> = {
  status: 'status',
  value: 'value',
  note: 'note',
  checked_by: 'checkedBy',
  plan: 'planId',
  device: 'deviceId',
  item: 'itemId',
  source: 'source',
};
/** Serializer field order, for the order of error keys (the create's write-only condition last, as declared). */
const FIELD_ORDER = [
  'status',
  'value',
  'note',
  'photo',
  'attachment',
  'checked_by',
  'plan',
  'device',
  'item',
  'source',
  UNANSWERED_FIELD,
];

type FileChange = { kind: MediaKind; content: Buffer; extension: string } | null;

const NOT_A_FILE = 'The submitted data was not a file. Check the encoding type on the form.';
const NOT_AN_IMAGE =
  'Upload a valid image. The file you uploaded was either not an image or a corrupted image.';

@Injectable()
export class RecordsService implements ResourceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly media: MediaStorage,
    private readonly environment: InspectionApiEnvironment,
    private readonly idempotency: IdempotencyService,
    private readonly actions: ActionsService,
    private readonly events: EventOutbox,
  ) {}

  page(
    mediaBase: string,
    filters: RecordFilters,
    request: PageRequest,
  ): Promise<PageRows<unknown> & { page: number }> {
    return paginate(request, async (limit, offset) => {
      const { sql, parameters } = recordPageSql(mediaBase, filters, limit, offset);
      const [row] = await this.dataSource.query<Array<PageRows<unknown>>>(sql, parameters);
      return { count: row?.count ?? 0, results: row?.results ?? [] };
    });
  }

  findOne(id: number, request: ResourceRequest): Promise<unknown> {
    return this.representation(this.dataSource, mediaUrlBase(request.origin), id);
  }

  private async representation(db: WriteDatabase, mediaBase: string, id: number): Promise<unknown> {
    const rows: Array<{ body: unknown }> = await db.query(
      `SELECT ${RECORD_JSON} AS "body" FROM "check_records" r WHERE r."id" = $2`,
      [mediaBase, id],
    );
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /** photo / attachment from multipart input: a file part sets, an empty text field clears. */
  private fileChanges(input: Input, files: Map<string, UploadedPart>, errors: FieldErrors) {
    const changes: Partial<Record<'photo' | 'attachment', FileChange>> = {};
    if (input.kind !== 'form') return changes; // read-only in JSON bodies: ignored
    for (const field of ['photo', 'attachment'] as const) {
      const part = files.get(field);
      const limit =
        field === 'photo'
          ? this.environment.INSPECTION_MAX_PHOTO_BYTES
          : this.environment.INSPECTION_MAX_ATTACHMENT_BYTES;
      if (part) {
        if (part.size > limit) throw payloadTooLarge(`The ${field} exceeds the limit of ${limit} bytes.`);
        if (part.size === 0) {
          errors[field] = ['The submitted file is empty.'];
          continue;
        }
        if (field === 'photo') {
          const extension = imageExtension(part.buffer);
          if (!extension) errors[field] = [NOT_AN_IMAGE];
          else changes.photo = { kind: 'photos', content: part.buffer, extension };
        } else {
          changes.attachment = {
            kind: 'attachments',
            content: part.buffer,
            extension: safeExtension(part.originalname),
          };
        }
        continue;
      }
      const text = input.data.get(field);
      if (text === undefined) continue;
      if (text[text.length - 1] === '') changes[field] = null;
      else errors[field] = [NOT_A_FILE];
    }
    return changes;
  }

  private async validate(
    db: WriteDatabase,
    input: Input,
    files: Map<string, UploadedPart>,
    partial: boolean,
    fields: readonly FieldSpec[] = CHECK_RECORD_FIELDS,
    otherErrors: FieldErrors = {},
  ) {
    const { values, errors } = await validateInput(input, fields, {
      partial,
      existingIds: existingIdsIn(db),
    });
    const fileErrors: FieldErrors = {};
    const changes =
      isFieldErrors(errors) && 'non_field_errors' in errors ? {} : this.fileChanges(input, files, fileErrors);
    const all: FieldErrors = { ...errors, ...fileErrors, ...otherErrors };
    if (isFieldErrors(all)) {
      const ordered: FieldErrors = {};
      for (const key of [...FIELD_ORDER, ...Object.keys(all)]) if (all[key]) ordered[key] = all[key];
      throw validationError(ordered);
    }
    const entity: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(values)) entity[COLUMNS[field] ?? field] = value;
    return { entity: entity as Partial<CheckRecordEntity>, changes };
  }

  /** Whether a value is outside its item's definition as it stands now (`isOutOfRange`); false without an item. */
  private async outOfRange(db: WriteDatabase | EntityManager, item: number | null, value: string) {
    if (item === null || !value.trim()) return false;
    const rows: ItemDefinition[] = await db.query(
      'SELECT "type", "unit", "min", "max", "options" FROM "check_items" WHERE "id" = $1',
      [item],
    );
    return rows[0] ? isOutOfRange(rows[0], value) : false;
  }

  /** Writes new files first; returns their keys (null = cleared) and a rollback that removes them. */
  private async storeFiles(changes: Partial<Record<'photo' | 'attachment', FileChange>>) {
    const keys: Partial<Record<'photo' | 'attachment', string | null>> = {};
    try {
      for (const field of ['photo', 'attachment'] as const) {
        const change = changes[field];
        if (change === undefined) continue;
        keys[field] =
          change === null ? null : await this.media.save(change.kind, change.content, change.extension);
      }
    } catch (error) {
      await this.media.removeAll(Object.values(keys));
      throw error;
    }
    return { keys, rollback: () => this.media.removeAll(Object.values(keys)) };
  }

  private referenceVanished(error: unknown): never {
    if (sqlState(error) === '23503')
      throw validationError({ non_field_errors: ['A referenced device, plan or item no longer exists.'] });
    throw error;
  }

  /** POST; with an `Idempotency-Key`, once per key (IdempotencyService). */
  create(readInput: () => Input, request: ResourceRequest): Promise<unknown> {
    return this.idempotency.once(
      request.write,
      () => this.fingerprint(readInput, request),
      async (db) => ({ status: 201, body: await this.insert(db, readInput(), request) }),
    );
  }

  /** PUT/PATCH (the photo upload is a multipart PATCH); with an `Idempotency-Key`, once per key. */
  update(id: number, readInput: () => Input, partial: boolean, request: ResourceRequest): Promise<unknown> {
    return this.idempotency.once(
      request.write,
      () => this.fingerprint(readInput, request),
      (db) => this.change(db, id, readInput, partial, request),
    );
  }

  private fingerprint(readInput: () => Input, request: ResourceRequest): string {
    const write = request.write;
    return requestFingerprint(write?.method ?? '', write?.path ?? '', readInput(), request.files());
  }

  private async insert(db: WriteDatabase, input: Input, request: ResourceRequest): Promise<unknown> {
    // `if_unanswered_since`: only the first answer to the item since then makes a record (409 otherwise). An
    // unreadable one is reported with the other fields' errors, in one 400.
    const conditionErrors: FieldErrors = {};
    const condition = unansweredConditionOf(input, this.environment.INSPECTION_TIME_ZONE, conditionErrors);
    const { entity, changes } = await this.validate(
      db,
      input,
      request.files(),
      false,
      recordFieldsFor(request.user),
      conditionErrors,
    );
    const conditionItem = entity.itemId ?? null;
    if (condition && conditionItem === null) throw conditionNeedsItem();
    const checkedBy = fixedCheckedBy(request.user);
    if (checkedBy !== undefined) entity.checkedBy = checkedBy;
    entity.outOfRange = await this.outOfRange(db, entity.itemId ?? null, entity.value ?? '');
    const { keys, rollback } = await this.storeFiles(changes);
    let id: number;
    try {
      // The record and the corrective action it may open commit together.
      id = await db.transaction(async (manager) => {
        await auditActor(manager, request.user);
        if (condition && conditionItem !== null)
          await holdUnanswered(
            manager,
            condition,
            entity.deviceId ?? 0,
            conditionItem,
            RECORD_JSON,
            mediaUrlBase(request.origin),
          );
        const result = await manager
          .createQueryBuilder()
          .insert()
          .into(CheckRecordEntity)
          .values({ ...entity, ...keys })
          .returning(['id', 'status'])
          .execute();
        const recordId = (result.identifiers[0] as { id: number }).id;
        await this.actions.openForRecord(manager, recordId, request.user?.username ?? '');
        await this.events.emit(
          manager,
          recordEvents((result.raw as Array<{ status: string }>)[0]?.status),
          recordId,
        );
        return recordId;
      });
    } catch (error) {
      await rollback();
      return this.referenceVanished(error);
    }
    return this.representation(db, mediaUrlBase(request.origin), id);
  }

  /** A replaced or cleared file is removed once the row no longer points at it (after the commit). */
  private async change(
    db: WriteDatabase,
    id: number,
    readInput: () => Input,
    partial: boolean,
    request: ResourceRequest,
  ): Promise<WriteResult> {
    const current = await db.getRepository(CheckRecordEntity).findOne({
      where: { id },
      select: { id: true, photo: true, attachment: true },
    });
    if (!current) throw notFound();
    const input = readInput();
    const { entity, changes } = await this.validate(db, input, request.files(), partial);
    const { keys, rollback } = await this.storeFiles(changes);
    const values = { ...entity, ...keys };
    let previous: Array<string | null> = [];
    if (Object.keys(values).length) {
      try {
        previous = await db.transaction(async (manager) => {
          await auditActor(manager, request.user);
          const rows: Array<{
            photo: string | null;
            attachment: string | null;
            status: string;
            value: string;
            item_id: number | null;
          }> = await manager.query(
            'SELECT "photo", "attachment", "status", "value", "item_id" FROM "check_records" WHERE "id" = $1 FOR UPDATE',
            [id],
          );
          const row = rows[0];
          if (!row) throw notFound();
          if (values.value !== undefined || values.itemId !== undefined)
            values.outOfRange = await this.outOfRange(
              manager,
              values.itemId !== undefined ? values.itemId : row.item_id,
              values.value ?? row.value,
            );
          await manager
            .createQueryBuilder()
            .update(CheckRecordEntity)
            .set(values)
            .where('id = :id', { id })
            .execute();
          await this.events.emit(manager, recordEvents(values.status ?? row.status, row.status), id);
          return (['photo', 'attachment'] as const)
            .filter((field) => field in keys)
            .map((field) => row[field]);
        });
      } catch (error) {
        await rollback();
        return this.referenceVanished(error);
      }
    }
    return {
      status: 200,
      body: await this.representation(db, mediaUrlBase(request.origin), id),
      afterCommit: () => this.media.removeAll(previous),
    };
  }

  async remove(id: number, request?: ResourceRequest): Promise<void> {
    const rows: Array<{ photo: string | null; attachment: string | null }> = await audited(
      this.dataSource,
      request?.user,
      (manager) =>
        manager.query(
          'WITH gone AS (DELETE FROM "check_records" WHERE "id" = $1 RETURNING "photo", "attachment") SELECT * FROM gone',
          [id],
        ),
    );
    const row = rows[0];
    if (!row) throw notFound();
    await this.media.removeAll([row.photo, row.attachment]);
  }
}
