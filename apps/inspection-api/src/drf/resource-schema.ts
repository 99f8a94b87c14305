import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Column, CreateDateColumn, PrimaryGeneratedColumn, type ColumnOptions } from 'typeorm';
import { type FieldSpec } from './serializer';
import { type FieldInfo, readOnlyFieldInfo, type SerializerInfo, writableFieldInfo } from './metadata';
import { isoTimestamp } from '../database/sql';

/**
 * One resource's shape, written once: each field's wire name, its DRF serializer field (validation and OPTIONS),
 * its database column (the TypeORM entity), how PostgreSQL renders it as JSON, and its OpenAPI description. The
 * DRF field table (`schemaFieldSpecs`), the OPTIONS metadata (`schemaInfo`), the entity's columns
 * (`applyEntityColumns`), the SQL JSON renderers (`schemaJsonText`, `schemaJsonObject`) and the OpenAPI properties
 * of the representation and input DTOs (`applyOpenApiProperties`) are derived from it. Every resource of
 * inspection-api has one, in `<resource>/<resource>.schema.ts`.
 */
export interface ResourceSchema<F extends readonly SchemaField[] = readonly SchemaField[]> {
  /** The table. */
  table: string;
  /** In representation order (the JSON keys and the OPTIONS fields). */
  fields: F;
}

/** The TypeORM column of a field. */
export type SchemaColumn =
  | { kind: 'primary' }
  | { kind: 'created'; name?: string }
  | { kind: 'column'; name?: string; options: ColumnOptions };

/**
 * How PostgreSQL renders a field's value of alias `a`: as JSON text (`schemaJsonText`) and as a `json_build_object`
 * value (`schemaJsonObject`).
 */
export type JsonSql =
  /** A NOT NULL integer (or boolean) column. */
  | 'integer'
  /** A NOT NULL string column. */
  | 'text'
  /** A NOT NULL timestamp, as DRF's ISO 8601 (`isoTimestamp`). */
  | 'timestamp'
  /** A nullable scalar column (`null` when NULL). */
  | 'nullable'
  /** A column `to_json` renders (an array). */
  | 'to_json'
  /** SQL of its own: `json` gives the JSON text, `value` the `json_build_object` value (nested lists, lookups). */
  | { json?: SqlOf; value?: SqlOf };

/** SQL of a field for the row of alias `alias`. */
export type SqlOf = (alias: string, variant: JsonVariant) => string;

/** Which rows a representation is rendered for (an archived row shows its `archived_at`). */
export type JsonVariant = 'in-use' | 'archived';

type Writable = FieldSpec extends infer S ? (S extends FieldSpec ? Omit<S, 'name'> : never) : never;

export interface SchemaField {
  /** The wire name (and the entity's property name). */
  name: string;
  /** A writable field: the DRF serializer field. Read-only fields leave it out. */
  writable?: Writable;
  /** A read-only field's OPTIONS description (`false`: OPTIONS leaves it out). */
  readOnly?: { type: string; extra?: Partial<FieldInfo> } | false;
  /** The entity's property when it differs from `name` (`createdAt` for `created_at`). */
  property?: string;
  column?: SchemaColumn;
  /** How PostgreSQL renders it; absent: not in the representation (a column only, e.g. an item's `archived_at`). */
  json?: JsonSql;
  /** Rendered only for archived rows (`?archived=true`). */
  onlyArchived?: boolean;
  /** The field's help text (OpenAPI `description`). */
  help?: string;
  /** OpenAPI options of the representation and input beyond those derived (format, nested type, nullability). */
  openApi?: ApiPropertyOptions;
  /** The representation's OpenAPI description where it differs from the shared one (`openApi`, `help`). */
  openApiRead?: OpenApiSide;
  /** The input's OpenAPI description where it differs from the shared one (`openApi`, `help`). */
  openApiWrite?: OpenApiSide;
  /** The multipart form's OpenAPI description where it differs from the input's (`openApiWrite`, else shared). */
  openApiMultipart?: OpenApiSide;
  /** A file part: written through multipart/form-data only (the multipart form lists it after the other fields). */
  upload?: boolean;
  /** An input only (a condition of the write): not in the representation, the OPTIONS or the DRF field table. */
  inputOnly?: boolean;
  /** A writable field only updates write (not in the create's DRF field table; an action's `status`). */
  onlyOnUpdate?: boolean;
  /**
   * A writable field its own rule validates rather than the DRF field table (`writable`): its OPTIONS description
   * as is. Such a field is in the input DTO and is not read-only.
   */
  customWritable?: { info: FieldInfo };
}

/** One side's OpenAPI description of a field, where it differs from the shared one. */
export interface OpenApiSide {
  /** Replaces the field's `openApi`. */
  openApi?: ApiPropertyOptions;
  /** Replaces the field's `help` (`null`: no description on this side). */
  help?: string | null;
  /** Whether the property is required on this side (default: as `writable` says; read-only fields are). */
  required?: boolean;
}

/** The values a valid write of resource `S` carries (each field's validated value, by its kind). */
export type WritableValues<S extends ResourceSchema> = {
  [F in Extract<S['fields'][number], { writable: object }> as F['name']]?: ValueOf<F['writable']>;
};
type ValueOf<W> = W extends { kind: 'char' }
  ? string
  : W extends { kind: 'choice'; choices: ReadonlyArray<infer C> }
    ? C
    : W extends { kind: 'bool' }
      ? boolean
      : W extends { kind: 'pk'; nullable: true }
        ? number | null
        : W extends { kind: 'pk' }
          ? number
          : W extends { kind: 'pks' }
            ? number[]
            : W extends { kind: 'date'; nullable: true }
              ? string | null
              : W extends { kind: 'date' }
                ? string
                : never;

/** The DRF field table of the writable fields, in order (what `validateInput` checks), of an update or a create. */
export function schemaFieldSpecs(schema: ResourceSchema, write: 'create' | 'update' = 'update'): FieldSpec[] {
  return schema.fields.flatMap((field) =>
    field.writable && !(write === 'create' && field.onlyOnUpdate)
      ? [{ ...field.writable, name: field.name }]
      : [],
  );
}

/** DRF SimpleMetadata's description of the serializer (OPTIONS `actions`), in representation order. */
export function schemaInfo(schema: ResourceSchema): SerializerInfo {
  const info: SerializerInfo = {};
  for (const field of schema.fields) {
    if (field.writable) info[field.name] = writableFieldInfo({ ...field.writable, name: field.name });
    else if (field.customWritable) info[field.name] = field.customWritable.info;
    else if (field.readOnly)
      info[field.name] = readOnlyFieldInfo(field.name, field.readOnly.type, field.readOnly.extra);
  }
  return info;
}

const SQL_STRING = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * The representation of alias `alias` as compact JSON text, keys in the schema's order, built by concatenation:
 * `to_json` escapes strings as `row_to_json` does, timestamps are DRF's ISO 8601 (`isoTimestamp`). Every rendered
 * column is NOT NULL (a null would make the whole text null).
 */
export function schemaJsonText(
  schema: ResourceSchema,
  alias: string,
  variant: JsonVariant = 'in-use',
): string {
  const parts: string[] = [];
  let literal = '{';
  for (const field of schema.fields) {
    if (!field.json || (field.onlyArchived && variant !== 'archived')) continue;
    literal += `${literal === '{' ? '' : ','}${JSON.stringify(field.name)}:`;
    const column = `${alias}."${columnName(field)}"`;
    const json = field.json;
    if (json === 'timestamp') {
      literal += '"';
      parts.push(SQL_STRING(literal), isoTimestamp(column));
      literal = '"';
    } else {
      parts.push(SQL_STRING(literal));
      parts.push(
        json === 'integer'
          ? column
          : json === 'text' || json === 'to_json'
            ? `to_json(${column})::text`
            : json === 'nullable'
              ? `COALESCE(to_json(${column})::text, 'null')`
              : ownSql(json, 'json', field)(alias, variant),
      );
      literal = '';
    }
  }
  parts.push(SQL_STRING(`${literal}}`));
  return parts.join(' || ');
}

/**
 * The representation of alias `alias` as a `json` value (`json_build_object`, keys in the schema's order), for the
 * routes that aggregate it (`json_agg`) or read it as an object.
 */
export function schemaJsonObject(
  schema: ResourceSchema,
  alias: string,
  variant: JsonVariant = 'in-use',
): string {
  const pairs: string[] = [];
  for (const field of schema.fields) {
    const json = field.json;
    if (!json || (field.onlyArchived && variant !== 'archived')) continue;
    const column = `${alias}."${columnName(field)}"`;
    const value =
      json === 'timestamp'
        ? isoTimestamp(column)
        : json === 'to_json'
          ? `to_json(${column})`
          : typeof json === 'string'
            ? column
            : ownSql(json, 'value', field)(alias, variant);
    pairs.push(`${SQL_STRING(field.name)}, ${value}`);
  }
  return `json_build_object(${pairs.join(', ')})`;
}

function ownSql(json: { json?: SqlOf; value?: SqlOf }, form: 'json' | 'value', field: SchemaField): SqlOf {
  const sql = json[form];
  if (!sql) throw new Error(`resource schema: field ${field.name} has no \`${form}\` SQL`);
  return sql;
}

/** The database column a field reads (its `column.name`, else its wire name). */
export function columnName(field: SchemaField): string {
  const column = field.column;
  return (column && column.kind !== 'primary' && column.name) || field.name;
}

/** The entity's property of a field. */
export const propertyName = (field: SchemaField): string => field.property ?? field.name;

/** Declares the schema's columns on the entity class (what its own `@Column` decorators would declare). */
export function applyEntityColumns(entity: abstract new () => object, schema: ResourceSchema): void {
  for (const field of schema.fields) {
    const column = field.column;
    if (!column) continue;
    const property = propertyName(field);
    const name = column.kind === 'primary' ? {} : column.name ? { name: column.name } : {};
    const decorator =
      column.kind === 'primary'
        ? PrimaryGeneratedColumn()
        : column.kind === 'created'
          ? CreateDateColumn({ ...name, type: 'timestamptz' })
          : Column({ ...name, ...column.options });
    decorator(entity.prototype as object, property);
  }
}

/**
 * Declares the OpenAPI properties of a resource's DTO from the schema: the representation (`read`: every field,
 * read-only ones marked so, an optional char field's default `''`), the JSON input (`write`: the writable fields
 * and inputs, no file parts) or the multipart form (`multipart`: those, then the file parts).
 * A char field is a string of at most `maxLength` characters and at least one unless it may be blank.
 */
export function applyOpenApiProperties(
  dto: abstract new () => object,
  schema: ResourceSchema,
  side: 'read' | 'write' | 'multipart',
): void {
  const written = (field: SchemaField): boolean =>
    Boolean(field.writable || field.customWritable || field.inputOnly);
  const fields =
    side === 'read'
      ? schema.fields.filter((field) => field.json)
      : side === 'write'
        ? schema.fields.filter((field) => written(field) && !field.upload)
        : [
            ...schema.fields.filter((field) => written(field) && !field.upload),
            ...schema.fields.filter((field) => field.upload),
          ];
  for (const field of fields) {
    const writable = field.writable;
    const own =
      side === 'read'
        ? field.openApiRead
        : side === 'write'
          ? field.openApiWrite
          : (field.openApiMultipart ?? field.openApiWrite);
    // Key order as the decorators' own options would have it (the document's bytes follow it).
    const options: ApiPropertyOptions = { ...(own?.openApi ?? field.openApi) };
    let required = true;
    if (writable) {
      required = writable.kind !== 'bool' && writable.required;
      if (writable.kind === 'char') {
        Object.assign(options, { type: String });
        if (!writable.allowBlank) options.minLength = 1;
        if (writable.maxLength !== undefined) options.maxLength = writable.maxLength;
        if (side === 'read' && !required && writable.allowBlank) options.default = '';
      }
    } else if (field.customWritable) {
      required = field.customWritable.info.required;
    } else if (field.inputOnly) {
      required = false;
    } else {
      options.readOnly = true;
      if (field.onlyArchived) required = false;
    }
    const help = own && own.help !== undefined ? own.help : field.help;
    if (help != null) options.description = help;
    if (own?.required !== undefined) required = own.required;
    (required ? ApiProperty : ApiPropertyOptional)(options)(dto.prototype as object, field.name);
  }
}
