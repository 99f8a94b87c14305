import { JsonInputError, jsonInputProblem, parseJsonInput } from './json-input';

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('jsonInputProblem', () => {
  it('accepts nesting up to the limit and refuses one level more, objects and arrays alike', () => {
    expect(jsonInputProblem(bytes(`${'['.repeat(64)}${']'.repeat(64)}`))).toBeUndefined();
    expect(jsonInputProblem(bytes(`${'['.repeat(65)}${']'.repeat(65)}`))).toEqual({
      kind: 'depth',
      position: 64,
      container: 'array',
      maxDepth: 64,
    });
    expect(jsonInputProblem(bytes(`{"a":{"b":[1]}}`), { maxDepth: 2 })).toMatchObject({
      kind: 'depth',
      container: 'array',
    });
    expect(jsonInputProblem(bytes('[[1],[2],[3]]'), { maxDepth: 2 })).toBeUndefined();
  });

  it('counts no brackets inside strings, escaped quotes included', () => {
    const text = `{"a":"${'['.repeat(200)}\\"${'{'.repeat(200)}"}`;
    expect(jsonInputProblem(bytes(text))).toBeUndefined();
    expect(jsonInputProblem(bytes('["\\\\", [[1]]]'), { maxDepth: 2 })).toMatchObject({ kind: 'depth' });
  });

  it("reports invalid UTF-8 in the terms of Python's codec", () => {
    expect(jsonInputProblem(bytes('"a', [0xff], '"'))).toEqual({
      kind: 'encoding',
      position: 2,
      byte: 0xff,
      bytes: 1,
      reason: 'invalid start byte',
    });
    expect(jsonInputProblem(bytes('"', [0xe2, 0x82], 'x"'))).toMatchObject({
      position: 1,
      bytes: 2,
      reason: 'invalid continuation byte',
    });
    expect(jsonInputProblem(bytes('"', [0xe0, 0x80, 0x80], '"'))).toMatchObject({
      bytes: 1,
      reason: 'invalid continuation byte',
    });
    expect(jsonInputProblem(bytes('"', [0xed, 0xa0, 0x80], '"'))).toMatchObject({
      reason: 'invalid continuation byte',
    });
    expect(jsonInputProblem(bytes('"', [0xf0, 0x9f]))).toMatchObject({
      bytes: 2,
      reason: 'unexpected end of data',
    });
    expect(jsonInputProblem(bytes('"caf\u00e9 \u{1f600}"'))).toBeUndefined();
  });

  it('refuses a \\u0000 escape only when asked, and not an escaped backslash before u0000', () => {
    expect(jsonInputProblem(bytes('"a\\u0000"'))).toBeUndefined();
    expect(jsonInputProblem(bytes('"a\\u0000"'), { refuseNul: true })).toEqual({ kind: 'nul', position: 2 });
    expect(jsonInputProblem(bytes('"a\\\\u0000"'), { refuseNul: true })).toBeUndefined();
    expect(jsonInputProblem(bytes('"a\\u00001"'), { refuseNul: true })).toMatchObject({ kind: 'nul' });
  });
});

describe('parseJsonInput', () => {
  it('parses accepted bodies and throws a 400 SyntaxError for refused ones', () => {
    expect(parseJsonInput(bytes('[{"Text":"hi"}]'))).toEqual([{ Text: 'hi' }]);
    const refused = (() => {
      try {
        parseJsonInput(bytes(`${'['.repeat(100)}`));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(JsonInputError);
    expect(refused).toBeInstanceOf(SyntaxError);
    expect(refused).toMatchObject({ status: 400, message: expect.stringMatching(/deeper than 64 levels/) });
    expect(() => parseJsonInput(bytes('{'))).toThrow(SyntaxError);
  });
});
