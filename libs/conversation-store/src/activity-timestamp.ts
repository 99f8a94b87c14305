/** ISO-8601 UTC with 7 fractional digits (as the real service), from epoch microseconds. */
export function isoTimestampFromMicros(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const seconds = new Date(Math.floor(millis / 1000) * 1000).toISOString().slice(0, 19);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${seconds}.${fraction}0Z`;
}
