/**
 * A route pattern of Nest's router (`/v3/conversations/:conversationId/activities`) matched as Express 5 matches it
 * (path-to-regexp with Nest's defaults: any case, one optional trailing slash, a parameter is one non-empty
 * segment), without allocating until it matches: literal segments are compared in place, code unit by code unit.
 * Patterns with anything else (wildcards, optional groups, regular expressions) are refused at construction.
 */
export class PathPattern {
  /** Each segment: a literal in lower case, or undefined for a parameter. */
  private readonly literals: (string | undefined)[] = [];
  /** Each segment: its parameter's name, or undefined for a literal. */
  private readonly paramNames: (string | undefined)[] = [];
  /** The parameters' names, in order. */
  readonly names: string[] = [];

  constructor(readonly pattern: string) {
    if (!pattern.startsWith('/')) throw new Error(`route pattern ${pattern} does not start with /`);
    const segments = pattern === '/' ? [] : pattern.slice(1).replace(/\/$/, '').split('/');
    for (const segment of segments) {
      if (segment.startsWith(':') && /^:[A-Za-z_$][\w$]*$/.test(segment)) {
        this.literals.push(undefined);
        this.paramNames.push(segment.slice(1));
        this.names.push(segment.slice(1));
      } else if (/^[\w.~-]+$/.test(segment)) {
        this.literals.push(segment.toLowerCase());
        this.paramNames.push(undefined);
      } else {
        throw new Error(`route pattern ${pattern}: segment ${segment} is not a literal or a plain parameter`);
      }
    }
  }

  /** Whether `path` (no query) matches. */
  matches(path: string): boolean {
    return this.scan(path, undefined);
  }

  /** The parameters of a matching path, still URI-encoded; undefined when it does not match. */
  params(path: string): Record<string, string> | undefined {
    const params: Record<string, string> = {};
    return this.scan(path, params) ? params : undefined;
  }

  /** Whether some path could match both this pattern and `other`. */
  overlaps(other: PathPattern): boolean {
    if (other.literals.length !== this.literals.length) return false;
    return this.literals.every(
      (literal, index) =>
        literal === undefined || other.literals[index] === undefined || literal === other.literals[index],
    );
  }

  /** A path this pattern matches (each parameter `x`). */
  sample(): string {
    return `/${this.literals.map((literal) => literal ?? 'x').join('/')}`;
  }

  private scan(path: string, params: Record<string, string> | undefined): boolean {
    const length = path.length;
    if (length === 0 || path.charCodeAt(0) !== 47 /* / */) return false;
    let position = 1;
    for (let index = 0; index < this.literals.length; index += 1) {
      if (index > 0) {
        if (position >= length || path.charCodeAt(position) !== 47) return false;
        position += 1;
      }
      let end = path.indexOf('/', position);
      if (end < 0) end = length;
      const literal = this.literals[index];
      if (literal === undefined) {
        if (end === position) return false;
        if (params) params[this.paramNames[index]!] = path.slice(position, end);
      } else if (!sameLiteral(path, position, end, literal)) {
        return false;
      }
      position = end;
    }
    // One optional trailing slash.
    return position === length || (position === length - 1 && path.charCodeAt(position) === 47);
  }
}

/** `path[start, end)` equals `literal` (lower case) in any ASCII case. */
function sameLiteral(path: string, start: number, end: number, literal: string): boolean {
  if (end - start !== literal.length) return false;
  for (let index = 0; index < literal.length; index += 1) {
    let code = path.charCodeAt(start + index);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== literal.charCodeAt(index)) return false;
  }
  return true;
}
