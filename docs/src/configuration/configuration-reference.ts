import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AllInOneEnvironment } from '@fieldops/all-in-one';
import { AuthSidecarEnvironment, ConnectorGatewayEnvironment } from '@fieldops/connector-gateway';
import { ConversationStateEnvironment } from '@fieldops/conversation-store';
import { InspectionApiEnvironment } from '@fieldops/inspection-api';
import { InspectionBotEnvironment } from '@fieldops/inspection-bot';
import { CommonEnvironment, environmentVariableNames } from '@fieldops/platform';
import { RelayGatewayEnvironment } from '@fieldops/relay-gateway';
import { repositoryRoot } from '../markdown';
import { declaredProperties, type DeclaredProperty } from './doc-comments';
import { validationRules } from './validation-rules';

/** The reference the tables are generated into (its prose is written by hand). */
export const CONFIGURATION_REFERENCE = 'docs/operate/configuration.md';

/** The command that regenerates the tables. */
export const REGENERATE_COMMAND = 'npm run docs:config';

type EnvironmentSchema = new () => object;

/** An environment class, the source file that declares it, and the id of its table in the reference. */
export interface EnvironmentClass {
  id: string;
  schema: EnvironmentSchema;
  source: string;
}

/** Every environment class, in the order of the reference. */
export const ENVIRONMENT_CLASSES: readonly EnvironmentClass[] = [
  { id: 'common', schema: CommonEnvironment, source: 'libs/platform/src/config/common-environment.ts' },
  {
    id: 'conversation-state',
    schema: ConversationStateEnvironment,
    source: 'libs/conversation-store/src/conversation-state.environment.ts',
  },
  {
    id: 'inspection-api',
    schema: InspectionApiEnvironment,
    source: 'apps/inspection-api/src/config/inspection-api.environment.ts',
  },
  {
    id: 'relay-gateway',
    schema: RelayGatewayEnvironment,
    source: 'apps/relay-gateway/src/config/relay-gateway.environment.ts',
  },
  {
    id: 'connector-gateway',
    schema: ConnectorGatewayEnvironment,
    source: 'apps/connector-gateway/src/config/connector-gateway.environment.ts',
  },
  {
    id: 'auth-sidecar',
    schema: AuthSidecarEnvironment,
    source: 'apps/connector-gateway/src/auth-sidecar/auth-sidecar.environment.ts',
  },
  {
    id: 'inspection-bot',
    schema: InspectionBotEnvironment,
    source: 'apps/inspection-bot/src/config/inspection-bot.environment.ts',
  },
  { id: 'all-in-one', schema: AllInOneEnvironment, source: 'apps/all-in-one/src/all-in-one.environment.ts' },
];

/** One row of the reference. */
export interface VariableReference {
  name: string;
  type: string;
  default: string;
  meaning: string;
}

/** The variables a class itself declares (`@Expose()`d properties), in source order, with their doc comments. */
export function ownVariables(environment: EnvironmentClass): DeclaredProperty[] {
  return declaredProperties(join(repositoryRoot, environment.source), environment.schema.name).filter(
    (property) => property.exposed,
  );
}

/** The variables whose doc comment is missing, as `Class.NAME (file)`. */
export function undocumentedVariables(classes = ENVIRONMENT_CLASSES): string[] {
  return classes.flatMap((environment) =>
    ownVariables(environment)
      .filter((property) => !property.comment?.text)
      .map((property) => `${environment.schema.name}.${property.name} (${environment.source})`),
  );
}

/** The classes of the reference a class inherits variables from, itself first. */
export function lineage(environment: EnvironmentClass, classes = ENVIRONMENT_CLASSES): EnvironmentClass[] {
  const chain: EnvironmentClass[] = [];
  for (let schema: unknown = environment.schema; typeof schema === 'function';) {
    const entry = classes.find((candidate) => candidate.schema === schema);
    if (entry !== undefined) chain.push(entry);
    schema = Object.getPrototypeOf(schema);
  }
  return chain;
}

/** The variables a class reads at run time (its own and its parents' `@Expose()`d properties). */
export function readVariables(environment: EnvironmentClass): string[] {
  return environmentVariableNames(environment.schema);
}

function code(value: string): string {
  return `\`${value}\``;
}

function shownDefault(environment: EnvironmentClass, property: DeclaredProperty, optional: boolean): string {
  const tagged = property.comment?.tags.default;
  if (tagged) return tagged;
  const value: unknown = (new environment.schema() as Record<string, unknown>)[property.name];
  if (value === undefined) return optional ? 'unset' : 'required';
  const shown = Array.isArray(value)
    ? value.join(',')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : `${value as string | number | boolean}`;
  if (shown.includes(repositoryRoot))
    throw new Error(
      `${environment.schema.name}.${property.name}: its default depends on where the repository is (${shown}); ` +
        'give its doc comment a `@default` tag to show instead (`@default `<repo>/.data/…``)',
    );
  return shown === '' ? 'empty' : code(shown);
}

/** The rows of a class's own variables: type and bounds from its validators, the default from an instance. */
export function variableReferences(environment: EnvironmentClass): VariableReference[] {
  return ownVariables(environment).map((property) => {
    const rules = validationRules(environment.schema, property.name);
    return {
      name: code(property.name),
      type: rules.type,
      default: shownDefault(environment, property, rules.optional || rules.conditional),
      meaning: property.comment?.text ?? '',
    };
  });
}

function cell(text: string): string {
  return text.replace(/(?<!\\)\|/g, '\\|');
}

/** A Markdown table with its columns padded to their widest cell, as Prettier formats it. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => [...row[column]].length)));
  const line = (row: readonly string[]) =>
    `| ${row.map((text, column) => text + ' '.repeat(widths[column] - [...text].length)).join(' | ')} |`;
  const [head, ...body] = cells;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** The generated table of one class. */
export function referenceTable(environment: EnvironmentClass): string {
  return markdownTable(
    ['variable', 'type', 'default', 'meaning'],
    variableReferences(environment).map((row) => [row.name, row.type, row.default, row.meaning]),
  );
}

const GENERATED_BLOCK = /<!-- generated: ([a-z0-9-]+) -->\n[\s\S]*?<!-- end generated -->/g;

/**
 * The Markdown with each generated block (`<!-- generated: id -->` … `<!-- end generated -->`) replaced by the table
 * of that id; the prose around the blocks is kept. Every table must have exactly one block, and every block a table.
 */
export function withGeneratedTables(markdown: string, tables: Readonly<Record<string, string>>): string {
  const seen: string[] = [];
  const replaced = markdown.replace(GENERATED_BLOCK, (_, id: string) => {
    if (!(id in tables))
      throw new Error(`${CONFIGURATION_REFERENCE}: no environment class has the table id ${id}`);
    if (seen.includes(id)) throw new Error(`${CONFIGURATION_REFERENCE}: the table ${id} appears twice`);
    seen.push(id);
    return `<!-- generated: ${id} -->\n\n${tables[id]}\n\n<!-- end generated -->`;
  });
  const missing = Object.keys(tables).filter((id) => !seen.includes(id));
  if (missing.length > 0)
    throw new Error(
      `${CONFIGURATION_REFERENCE}: no place for the table(s) ${missing.join(', ')} ` +
        '(add `<!-- generated: <id> -->` and `<!-- end generated -->` lines where each belongs)',
    );
  return replaced;
}

/** The configuration reference as it should be: today's prose with freshly generated tables. */
export function generatedConfigurationReference(classes = ENVIRONMENT_CLASSES): string {
  const tables = Object.fromEntries(
    classes.map((environment) => [environment.id, referenceTable(environment)]),
  );
  return withGeneratedTables(readFileSync(join(repositoryRoot, CONFIGURATION_REFERENCE), 'utf8'), tables);
}
