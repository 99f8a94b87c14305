import { BotFrameworkError } from '@fieldops/contracts';
import { FROM_START, parseWatermark } from './watermark';

function refusal(value: unknown) {
  try {
    parseWatermark(value);
  } catch (error) {
    if (!(error instanceof BotFrameworkError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
  return undefined;
}

describe('parseWatermark', () => {
  it('reads absent, empty and "-" as from the start', () => {
    expect(parseWatermark(undefined)).toBeUndefined();
    expect(parseWatermark('')).toBeUndefined();
    expect(parseWatermark(FROM_START)).toBeUndefined();
  });

  it('reads a decimal sequence number, negative ones included', () => {
    expect(parseWatermark('0')).toBe(0);
    expect(parseWatermark('41')).toBe(41);
    expect(parseWatermark('-1')).toBe(-1);
  });

  it.each([['abc'], ['1.5'], ['0001a-95'], ['1234567890123456'], [['1', '2']], [7]])(
    'refuses %j with 400 BadArgument "Invalid watermark"',
    (value) =>
      expect(refusal(value)).toEqual({ status: 400, code: 'BadArgument', message: 'Invalid watermark' }),
  );
});
