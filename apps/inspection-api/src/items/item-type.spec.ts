import {
  definitionAfter,
  isOutOfRange,
  type ItemDefinition,
  leadingNumber,
  readLimit,
  readOptions,
} from './item-type';

const text: ItemDefinition = { type: 'text', unit: '', min: null, max: null, options: [] };
const pressure: ItemDefinition = { type: 'number', unit: 'bar', min: 2.5, max: 3, options: [] };

describe('typed check items', () => {
  it('a number value is out of range below min, above max, or without a number; limits are inclusive', () => {
    expect(isOutOfRange(pressure, '3.1')).toBe(true);
    expect(isOutOfRange(pressure, '2.4 bar')).toBe(true);
    expect(isOutOfRange(pressure, '2,7')).toBe(false);
    expect(isOutOfRange(pressure, '2.5')).toBe(false);
    expect(isOutOfRange(pressure, '3')).toBe(false);
    expect(isOutOfRange(pressure, 'n/a')).toBe(true);
    expect(isOutOfRange(pressure, '  ')).toBe(false); // nothing measured
    expect(isOutOfRange({ ...pressure, min: null }, '-40')).toBe(false);
    expect(isOutOfRange({ ...pressure, max: null }, '1e9')).toBe(false);
    expect(leadingNumber('-.5 °C')).toBe(-0.5);
  });

  it('a choice value is out of range when not an option; text and yes/no never are', () => {
    const choice: ItemDefinition = { ...text, type: 'choice', options: ['clean', 'dirty'] };
    expect(isOutOfRange(choice, 'clean')).toBe(false);
    expect(isOutOfRange(choice, 'broken')).toBe(true);
    expect(isOutOfRange(text, 'anything')).toBe(false);
    expect(isOutOfRange({ ...text, type: 'yes_no' }, 'no')).toBe(false);
  });

  it('reads limits as DRF FloatField and options as a ListField of strings', () => {
    expect(readLimit('2.5')).toEqual({ value: 2.5 });
    expect(readLimit(3)).toEqual({ value: 3 });
    expect(readLimit(null)).toEqual({ value: null });
    for (const bad of [true, 'abc', [], {}, '1e999', 'NaN'])
      expect(readLimit(bad)).toEqual({ error: 'A valid number is required.' });
    expect(readOptions(['a', ' b '])).toEqual({ value: ['a', 'b'] });
    expect(readOptions('a')).toEqual({ error: ['Expected a list of items but got type "str".'] });
    expect(readOptions(['a', 'a'])).toEqual({ error: ['Items in this list must be unique.'] });
    expect(readOptions([''])).toEqual({ error: ['This field may not be blank.'] });
    expect(readOptions(Array.from({ length: 51 }, (_, index) => `o${index}`))).toEqual({
      error: ['Ensure this field has no more than 50 elements.'],
    });
  });

  it('checks a definition as a whole, clearing what a new type does not use unless it was sent', () => {
    expect(definitionAfter(text, { type: 'number', min: 3, max: 2 })).toEqual({
      errors: { non_field_errors: ['min must not be greater than max.'] },
    });
    expect(definitionAfter(text, { type: 'choice' })).toEqual({
      errors: { options: ['A choice item needs at least one option.'] },
    });
    expect(definitionAfter(text, { min: 1, unit: 'bar' })).toEqual({
      errors: { unit: ['Only a number item has a unit.'], min: ['Only a number item has limits.'] },
    });
    expect(definitionAfter(text, { options: ['a'] })).toEqual({
      errors: { options: ['Only a choice item has options.'] },
    });
    expect(definitionAfter(pressure, { type: 'yes_no' })).toEqual({
      definition: { type: 'yes_no', unit: '', min: null, max: null, options: [] },
    });
    expect(definitionAfter(pressure, { max: 4 })).toEqual({ definition: { ...pressure, max: 4 } });
    expect(definitionAfter(pressure, {})).toEqual({ definition: pressure });
  });
});
