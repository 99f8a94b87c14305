import fc from 'fast-check';
import { neutraliseFormula } from './records-export.service';

describe('neutraliseFormula (CSV injection)', () => {
  it('neutralises every cell starting with a formula character', () => {
    for (const cell of [
      "-2+3+cmd|' /C calc'!A0",
      '-1+1',
      '-A1',
      '-',
      '- 3',
      '-3 ',
      '-3-3',
      '-.',
      '-1e',
      '-0x10',
      '=1+1',
      '+1',
      '@SUM(A1)',
      '\tx',
      '\rx',
    ])
      expect([cell, neutraliseFormula(cell)]).toEqual([cell, `'${cell}`]);
  });

  it('leaves a negative number alone when the whole cell is that number', () => {
    for (const cell of ['-3', '-3.5', '-0.25', '-.5', '-7.', '-1e3', '-2.5E-4'])
      expect(neutraliseFormula(cell)).toBe(cell);
    fc.assert(
      fc.property(fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(neutraliseFormula(String(value))).toBe(String(value));
      }),
    );
  });

  it('anything else starting with "-" is neutralised', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((rest) => !Number.isFinite(Number(`-${rest}`)) || /\s/.test(rest)),
        (rest) => {
          expect(neutraliseFormula(`-${rest}`)).toBe(`'-${rest}`);
        },
      ),
    );
  });

  it('leaves ordinary text alone', () => {
    for (const cell of ['Pump 3', '3-2', 'a=b', '储罐', '', "'quoted"])
      expect(neutraliseFormula(cell)).toBe(cell);
  });
});
