import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** A property's doc comment: its text (one line) and its JSDoc tags (`@default <shown default>`). */
export interface DocComment {
  text: string;
  tags: Record<string, string>;
}

/** A property of an environment class as its source declares it. */
export interface DeclaredProperty {
  name: string;
  /** Whether the property carries `@Expose()`, i.e. is read from the environment. */
  exposed: boolean;
  /** Its doc comment; undefined when it has none. */
  comment?: DocComment;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function decoratorName(decorator: ts.Decorator): string | undefined {
  const expression = ts.isCallExpression(decorator.expression)
    ? decorator.expression.expression
    : decorator.expression;
  return ts.isIdentifier(expression) ? expression.text : undefined;
}

function docComment(member: ts.PropertyDeclaration): DocComment | undefined {
  const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
  if (docs.length === 0) return undefined;
  const doc = docs[docs.length - 1];
  const tags: Record<string, string> = {};
  for (const tag of doc.tags ?? [])
    tags[tag.tagName.text] = oneLine(ts.getTextOfJSDocComment(tag.comment) ?? '');
  return { text: oneLine(ts.getTextOfJSDocComment(doc.comment) ?? ''), tags };
}

/**
 * The properties a class declares in a TypeScript source file, in source order, with their doc comments, read with
 * the TypeScript compiler's parser (nothing is type-checked or run).
 */
export function declaredProperties(file: string, className: string): DeclaredProperty[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find(
    (statement): statement is ts.ClassDeclaration =>
      ts.isClassDeclaration(statement) && statement.name?.text === className,
  );
  if (declaration === undefined) throw new Error(`${file} declares no class ${className}`);
  return declaration.members.filter(ts.isPropertyDeclaration).map((member) => ({
    name: member.name.getText(source),
    exposed: (ts.getDecorators(member) ?? []).some((decorator) => decoratorName(decorator) === 'Expose'),
    comment: docComment(member),
  }));
}
