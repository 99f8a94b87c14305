import { itemBody } from './item-body';

describe('a check item as the device form sends it', () => {
  it('sends a text or yes / no item without a unit, limits or options', () => {
    expect(itemBody({ name: 'Leaks', expected_value: '', unit: 'bar', min: 1, options: ['a'] })).toEqual({
      name: 'Leaks',
      expected_value: '',
      type: 'text',
    });
    expect(itemBody({ name: 'Door shut', type: 'yes_no', max: 3 })).toEqual({
      name: 'Door shut',
      type: 'yes_no',
    });
  });

  it('sends a number item with its unit and limits, blank limits as null', () => {
    expect(itemBody({ name: 'Pressure', type: 'number', unit: 'bar', min: 2.5, max: 3 })).toEqual({
      name: 'Pressure',
      type: 'number',
      unit: 'bar',
      min: 2.5,
      max: 3,
    });
    expect(itemBody({ name: 'Level', type: 'number', min: null, max: '' as unknown as number })).toEqual({
      name: 'Level',
      type: 'number',
      unit: '',
      min: null,
      max: null,
    });
  });

  it('sends a choice item with its options trimmed, blank lines dropped', () => {
    expect(
      itemBody({ name: 'Colour', type: 'choice', options: [' green', '', 'amber ', 'red', ''] }),
    ).toEqual({
      name: 'Colour',
      type: 'choice',
      options: ['green', 'amber', 'red'],
    });
  });
});
