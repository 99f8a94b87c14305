import { badArgument } from '@fieldops/contracts';

/** The watermark of a streamUrl that replays the whole retained log (from start; reconnect without one). */
export const FROM_START = '-';

/**
 * A client's watermark (`?watermark=` on reconnect, polling and the stream): the sequence number of the last
 * activity it has, as a decimal string. Empty, `-` or absent mean "from the start" (undefined); anything else that
 * is not an integer is 400 `BadArgument` "Invalid watermark", on every route (the stream refuses its upgrade with it).
 */
export function parseWatermark(value: unknown): number | undefined {
  if (value === undefined || value === '' || value === FROM_START) return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value)) throw badArgument('Invalid watermark');
  return Number(value);
}
