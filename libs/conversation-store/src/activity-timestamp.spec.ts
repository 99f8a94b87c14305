import { isoTimestampFromMicros } from './activity-timestamp';

describe('isoTimestampFromMicros', () => {
  it('writes UTC with 7 fractional digits, the last always 0', () => {
    expect(isoTimestampFromMicros(0)).toBe('1970-01-01T00:00:00.0000000Z');
    expect(isoTimestampFromMicros(1_700_000_000_123_456)).toBe('2023-11-14T22:13:20.1234560Z');
    expect(isoTimestampFromMicros(1_700_000_000_000_001)).toBe('2023-11-14T22:13:20.0000010Z');
    expect(isoTimestampFromMicros(1_700_000_000_999_999)).toBe('2023-11-14T22:13:20.9999990Z');
  });

  it('is read back by Date.parse to the millisecond', () => {
    const micros = 1_732_406_400_987_654;
    expect(Date.parse(isoTimestampFromMicros(micros))).toBe(Math.floor(micros / 1000));
  });

  it('orders as strings as the microseconds do, across second boundaries too', () => {
    const micros = [
      1_700_000_000_999_998, 1_700_000_000_999_999, 1_700_000_001_000_000, 1_700_000_001_000_001,
    ];
    const stamps = micros.map(isoTimestampFromMicros);
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
  });
});
