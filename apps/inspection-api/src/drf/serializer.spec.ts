import fc from 'fast-check';
import { type FieldSpec, type Input, validateInput } from './serializer';

const SPECS: readonly FieldSpec[] = [
  { kind: 'char', name: 'name', required: true, allowBlank: false, maxLength: 5 },
  { kind: 'char', name: 'note', required: false, allowBlank: true },
  { kind: 'choice', name: 'status', required: false, choices: ['ok', 'fail'] },
  { kind: 'bool', name: 'active' },
  { kind: 'pk', name: 'device', required: false, nullable: true, table: 'devices' },
  { kind: 'pks', name: 'devices', required: false, table: 'devices' },
];

const existing = new Set([1, 2, 3]);
const lookups: number[][] = [];
const existingIds = (_table: string, ids: number[]) => {
  lookups.push(ids);
  return Promise.resolve(new Set(ids.filter((id) => existing.has(id))));
};
const json = (data: unknown): Input => ({ kind: 'json', data });
const validate = (input: Input, partial = false) => validateInput(input, SPECS, { partial, existingIds });

describe('validateInput (DRF field semantics)', () => {
  it('trims and stringifies char fields and applies blank, length, null and type rules', async () => {
    expect((await validate(json({ name: '  ab  ', note: 12 }))).values).toEqual({ name: 'ab', note: '12' });
    expect((await validate(json({ name: '   ' }))).errors).toEqual({
      name: ['This field may not be blank.'],
    });
    expect((await validate(json({ name: '😀😀😀😀😀' }))).errors).toEqual({});
    expect((await validate(json({ name: 'abcdef' }))).errors).toEqual({
      name: ['Ensure this field has no more than 5 characters.'],
    });
    expect((await validate(json({ name: false, note: null }))).errors).toEqual({
      name: ['Not a valid string.'],
      note: ['This field may not be null.'],
    });
    expect((await validate(json({ name: 'a\ud800' }))).errors).toEqual({
      name: ['Surrogate characters are not allowed: U+D800.'],
    });
  });

  it('applies choice and boolean rules like DRF 3.14', async () => {
    expect((await validate(json({ name: 'a', status: 'OK', active: 'maybe' }))).errors).toEqual({
      status: ['"OK" is not a valid choice.'],
      active: ['Must be a valid boolean.'],
    });
    for (const value of [true, 1, '1', 'yes', 'on', 'TRUE', 't'])
      expect((await validate(json({ name: 'a', active: value }))).values.active).toBe(true);
    for (const value of [false, 0, '0', 'no', 'off', 'False', 'f'])
      expect((await validate(json({ name: 'a', active: value }))).values.active).toBe(false);
  });

  it('resolves primary keys in one lookup and reports the first bad element of a list', async () => {
    lookups.length = 0;
    const result = await validate(json({ name: 'a', device: '2', devices: [1, 3] }));
    expect(result.values).toMatchObject({ device: 2, devices: [1, 3] });
    expect(lookups).toHaveLength(1);
    expect((await validate(json({ name: 'a', devices: [1, 9, 'x'] }))).errors).toEqual({
      devices: ['Invalid pk "9" - object does not exist.'],
    });
    expect((await validate(json({ name: 'a', device: 1.5 }))).values.device).toBe(1);
    expect((await validate(json({ name: 'a', device: '' }))).values.device).toBeNull();
    expect((await validate(json({ name: 'a', devices: { '1': true } }))).values.devices).toEqual([1]);
  });

  it('requires fields only on full writes and treats form input like HTML forms', async () => {
    expect((await validate(json({}))).errors).toEqual({ name: ['This field is required.'] });
    expect((await validate(json({}), true)).errors).toEqual({});
    const form: Input = {
      kind: 'form',
      data: new Map([
        ['name', ['a']],
        ['device', ['']],
        ['devices', ['1', '2']],
      ]),
    };
    expect((await validate(form)).values).toEqual({
      name: 'a',
      active: false,
      device: null,
      devices: [1, 2],
    });
    expect((await validate(form, true)).values).not.toHaveProperty('active');
  });

  it('never throws, whatever the input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.boolean(), async (data, partial) => {
        const { errors } = await validate(json(data), partial);
        for (const messages of Object.values(errors))
          expect(messages.every((m) => typeof m === 'string')).toBe(true);
      }),
    );
  });
});
