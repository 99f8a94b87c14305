/**
 * How deep `str()` / `repr()` go into nested lists and dicts. CPython itself cannot go this far: its repr of a list
 * nested about 1,000 deep raises `RecursionError` (sys.getrecursionlimit() is 1000), which Django answers with a
 * 500. We print everything up to this depth exactly as Python does, and a container nested deeper as `[...]` /
 * `{...}` — Python's own notation for a container it does not expand (a recursive one, or reprlib's elision).
 */
export const PYTHON_REPR_MAX_DEPTH = 1000;

/** How Python's repr() would show a JSON value (DRF puts them into messages). Never throws, for any input. */
export function pythonRepr(value: unknown): string {
  return render(value, true);
}

/** How Python's str() would show a JSON value. Never throws, for any input (iterative, depth-capped). */
export function pythonStr(value: unknown): string {
  return render(value, false);
}

/** A piece of output, or a value still to render at a nesting depth. */
type Task = string | { value: unknown; depth: number };

function render(root: unknown, reprOfRoot: boolean): string {
  if (typeof root === 'string') return reprOfRoot ? pythonStringRepr(root) : root;
  const out: string[] = [];
  const stack: Task[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (typeof task === 'string') {
      out.push(task);
      continue;
    }
    const { value, depth } = task;
    if (Array.isArray(value)) {
      if (depth >= PYTHON_REPR_MAX_DEPTH) {
        out.push('[...]');
        continue;
      }
      const tasks: Task[] = ['['];
      value.forEach((item: unknown, index) => {
        if (index > 0) tasks.push(', ');
        tasks.push({ value: item, depth: depth + 1 });
      });
      tasks.push(']');
      for (let index = tasks.length - 1; index >= 0; index -= 1) stack.push(tasks[index]);
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= PYTHON_REPR_MAX_DEPTH) {
        out.push('{...}');
        continue;
      }
      const tasks: Task[] = ['{'];
      Object.entries(value).forEach(([key, item], index) => {
        if (index > 0) tasks.push(', ');
        tasks.push(`${pythonStringRepr(key)}: `, { value: item, depth: depth + 1 });
      });
      tasks.push('}');
      for (let index = tasks.length - 1; index >= 0; index -= 1) stack.push(tasks[index]);
    } else {
      // Inside a container Python shows repr() of each element; at the root only strings differ (handled above).
      out.push(typeof value === 'string' ? pythonStringRepr(value) : scalarText(value));
    }
  }
  return out.join('');
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  return typeof value === 'bigint' ? value.toString() : typeof value;
}

/** Python's float repr: shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16, else `1e-05` style. */
function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  const decimalPoint = exponent + 1;
  if (decimalPoint > -4 && decimalPoint <= 16) {
    // JavaScript writes these magnitudes in fixed notation with the same shortest digits.
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const sign = exponent < 0 ? '-' : '+';
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Characters str.isprintable() refuses (other than the ones with short escapes); the space is printable. */
const NOT_PRINTABLE = /^(?! )[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** Python's repr() of a str: single quotes unless only they occur, `\\n`-style and `\\xNN`/`\\uNNNN` escapes. */
function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of text) {
    if (character === quote || character === '\\') out += `\\${character}`;
    else if (character === '\t') out += '\\t';
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (NOT_PRINTABLE.test(character)) {
      const code = character.codePointAt(0)!;
      out +=
        code < 0x100
          ? `\\x${code.toString(16).padStart(2, '0')}`
          : code < 0x10000
            ? `\\u${code.toString(16).padStart(4, '0')}`
            : `\\U${code.toString(16).padStart(8, '0')}`;
    } else out += character;
  }
  return out + quote;
}

export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

const QUOTE_SAFE = /^[\w.~-]*$/;

/** Python's urllib.parse.quote_plus (safe characters: letters, digits, `_.-~`). */
export function quotePlus(text: string): string {
  if (QUOTE_SAFE.test(text)) return text; // the usual case (page numbers, ids): nothing to escape
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
