import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Expose } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { markdownFiles, repositoryRoot } from '../markdown';
import {
  CONFIGURATION_REFERENCE,
  ENVIRONMENT_CLASSES,
  generatedConfigurationReference,
  lineage,
  markdownTable,
  ownVariables,
  readVariables,
  REGENERATE_COMMAND,
  undocumentedVariables,
  withGeneratedTables,
} from './configuration-reference';
import { validationRules } from './validation-rules';

// `npm run docs:config` runs this file with DOCS_CONFIG_WRITE=1: the reference is rewritten instead of compared.
const WRITE = process.env.DOCS_CONFIG_WRITE === '1';
const GENERATED_BLOCKS = /<!-- generated: [a-z0-9-]+ -->[\s\S]*?<!-- end generated -->/g;

describe('the configuration reference (docs/operate/configuration.md)', () => {
  it('has a doc comment for every variable an environment class reads', () => {
    // The doc comment is the variable's description in the reference: write it in the class.
    expect(undocumentedVariables()).toEqual([]);
  });

  it.each(ENVIRONMENT_CLASSES.map((environment) => [environment.schema.name, environment] as const))(
    'describes every variable %s reads, in its table or its parents',
    (_, environment) => {
      const described = lineage(environment).flatMap((entry) =>
        ownVariables(entry).map((property) => property.name),
      );
      expect([...new Set(described)].sort()).toEqual([...readVariables(environment)].sort());
    },
  );

  it(`is up to date with the environment classes (${REGENERATE_COMMAND} rewrites it)`, () => {
    const path = join(repositoryRoot, CONFIGURATION_REFERENCE);
    const expected = generatedConfigurationReference();
    if (WRITE) writeFileSync(path, expected);
    const current = readFileSync(path, 'utf8');
    if (current !== expected) {
      const lines = current.split('\n');
      const wanted = expected.split('\n');
      const at = wanted.findIndex((line, index) => line !== lines[index]);
      throw new Error(
        `${CONFIGURATION_REFERENCE} is out of date with the environment classes: run \`${REGENERATE_COMMAND}\`.\n` +
          `First difference, line ${at + 1}:\n  file:      ${lines[at]}\n  generated: ${wanted[at]}`,
      );
    }
  });

  it('is the only place a variable of the environment classes has a table row', () => {
    const names = new Set(ENVIRONMENT_CLASSES.flatMap(readVariables));
    const variablesCell = /^`\w+`(?:\s*[/,]\s*`\w+`)*$/;
    const files = markdownFiles().filter(
      (file) => file.startsWith('docs/') || /^apps\/[^/]+\/README\.md$/.test(file) || !file.includes('/'),
    );
    const handWritten = files.flatMap((file) => {
      const prose = readFileSync(join(repositoryRoot, file), 'utf8').replace(GENERATED_BLOCKS, (block) =>
        block.replace(/[^\n]/g, ''),
      );
      const lines = prose.split('\n');
      return lines.flatMap((line, index) => {
        if (/^\|\s*-/.test(lines[index + 1] ?? '')) return []; // a header row
        const firstCell = /^\|([^|]*)\|/.exec(line)?.[1].trim() ?? '';
        if (!variablesCell.test(firstCell)) return [];
        const named = [...firstCell.matchAll(/`(\w+)`/g)]
          .map((match) => match[1])
          .filter((name) => names.has(name));
        return named.map((name) => `${file}:${index + 1} ${name}`);
      });
    });
    // Link to docs/operate/configuration.md instead of describing a variable again.
    expect(handWritten).toEqual([]);
  });
});

describe('the generator', () => {
  class Example {
    /** A port. */
    @Expose() @IsInt() @Min(0) @Max(65535) PORT: number = 8000;

    @Expose() @IsOptional() @IsString() @MinLength(16) SECRET?: string;

    @Expose() @IsIn(['a', 'b', 'c']) MODE: string = 'a';

    @Expose() @IsString({ each: true }) NAMES: string[] = ['x', 'y'];
  }

  it('reads type and bounds from the validators', () => {
    expect(validationRules(Example, 'PORT')).toEqual({
      type: 'integer, 0 … 65535',
      optional: false,
      conditional: false,
    });
    expect(validationRules(Example, 'SECRET')).toEqual({
      type: 'string, at least 16 characters',
      optional: true,
      conditional: false,
    });
    expect(validationRules(Example, 'MODE').type).toBe('`a`, `b` or `c`');
    expect(validationRules(Example, 'NAMES').type).toBe('comma-separated list');
  });

  it('pads the columns as Prettier does and escapes pipes', () => {
    expect(markdownTable(['name', 'meaning'], [['`A`', 'x | y']])).toBe(
      ['| name | meaning |', '| ---- | ------- |', '| `A`  | x \\| y  |'].join('\n'),
    );
  });

  it('replaces only the generated blocks and keeps the prose', () => {
    const markdown = 'Prose.\n\n<!-- generated: one -->\nold\n<!-- end generated -->\n\nMore prose.\n';
    expect(withGeneratedTables(markdown, { one: '| a |' })).toBe(
      'Prose.\n\n<!-- generated: one -->\n\n| a |\n\n<!-- end generated -->\n\nMore prose.\n',
    );
    expect(() => withGeneratedTables(markdown, { one: '| a |', two: '| b |' })).toThrow(
      'no place for the table(s) two',
    );
    expect(() => withGeneratedTables(markdown, {})).toThrow('no environment class has the table id one');
  });
});
