import { PYTHON_REPR_MAX_DEPTH, pythonRepr, pythonStr } from './python-text';

/** Expected texts were printed by CPython 3.11 (`repr(x)` / `str(x)`). */
describe('python text', () => {
  it('repr() of strings: quote choice and escapes as CPython prints them', () => {
    const cases: Array<[string, string]> = [
      ["it's", `"it's"`],
      ['say "hi"', `'say "hi"'`],
      [`both ' and "`, `'both \\' and "'`],
      ['tab\tnl\nret\r', `'tab\\tnl\\nret\\r'`],
      ['nul\x00del\x7f', `'nul\\x00del\\x7f'`],
      ['zw\u200bjoin', `'zw\\u200bjoin'`],
      ['e\u0301', `'e\u0301'`],
      ['中文', `'中文'`],
      ['emoji\u{1F600}', `'emoji\u{1F600}'`],
      ['line\u2028sep', `'line\\u2028sep'`],
      ['nb\u00a0sp', `'nb\\xa0sp'`],
      ['back\\slash', `'back\\\\slash'`],
    ];
    for (const [input, expected] of cases) expect(pythonRepr(input)).toBe(expected);
  });

  it('str() of scalars and containers, floats in repr style', () => {
    expect(pythonStr([1, 'a', null, true, { k: [1.5, "x'y"] }])).toBe(
      `[1, 'a', None, True, {'k': [1.5, "x'y"]}]`,
    );
    expect(pythonStr('plain')).toBe('plain');
    expect(pythonStr(false)).toBe('False');
    const floats: Array<[number, string]> = [
      [0.5, '0.5'],
      [1.5e-7, '1.5e-07'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [123.456, '123.456'],
      [-2.5e-10, '-2.5e-10'],
      [1e-300, '1e-300'],
      [Number.NaN, 'nan'],
      [Number.NEGATIVE_INFINITY, '-inf'],
    ];
    for (const [input, expected] of floats) expect(pythonStr(input)).toBe(expected);
  });

  it('never throws: 10,000-deep nesting is elided past the depth Python itself could print', () => {
    let list: unknown = 1;
    let dict: unknown = 1;
    for (let level = 0; level < 10_000; level += 1) {
      list = [list];
      dict = { k: dict };
    }
    const listText = pythonStr(list);
    expect(listText).toBe(`${'['.repeat(PYTHON_REPR_MAX_DEPTH)}[...]${']'.repeat(PYTHON_REPR_MAX_DEPTH)}`);
    const dictText = pythonRepr(dict);
    expect(dictText.startsWith("{'k': {'k': ")).toBe(true);
    expect(dictText).toContain('{...}');
    // A cycle (not possible from JSON, but any input is safe) ends at the same depth.
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(pythonStr(cyclic)).toContain('[...]');
  });

  it('a container nested exactly to the limit is printed in full', () => {
    let value: unknown = 'x';
    for (let level = 0; level < PYTHON_REPR_MAX_DEPTH; level += 1) value = [value];
    expect(pythonStr(value)).toBe(
      `${'['.repeat(PYTHON_REPR_MAX_DEPTH)}'x'${']'.repeat(PYTHON_REPR_MAX_DEPTH)}`,
    );
  });
});
