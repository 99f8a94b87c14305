/** The `YYYY-MM-DDTHH:MM:SS` of the last second formatted: appends of one second share it (no Date per activity). */
let lastSecond = Number.NaN;
let lastSecondText = '';

/** ISO-8601 UTC with 7 fractional digits (as the real service), from epoch microseconds. */
export function isoTimestampFromMicros(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  if (second !== lastSecond) {
    lastSecondText = new Date(second * 1000).toISOString().slice(0, 19);
    lastSecond = second;
  }
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${lastSecondText}.${fraction}0Z`;
}
