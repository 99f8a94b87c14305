const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const BYTE = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;

/**
 * The bytes of an `AttachmentData` field (`originalBase64`, `thumbnailBase64`), or undefined when it holds none.
 * The wire format is a base64 string (what .NET's `byte[]` and botbuilder's serializer send), but the Agents SDK for
 * JavaScript types the fields as `Uint8Array` and sends them through `JSON.stringify`: a Buffer arrives as
 * `{"type":"Buffer","data":[…]}` and a plain Uint8Array as `{"0":…,"1":…}`. All three are read.
 */
export function attachmentBytes(value: unknown): Buffer | undefined {
  if (typeof value === 'string') return BASE64.test(value) ? Buffer.from(value, 'base64') : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (record.type === 'Buffer' && Array.isArray(record.data) && Object.keys(record).length === 2)
    return record.data.every(BYTE) ? Buffer.from(record.data) : undefined;
  const keys = Object.keys(record);
  if (!keys.every((key, index) => key === String(index))) return undefined;
  const bytes = keys.map((key) => record[key]);
  return bytes.every(BYTE) ? Buffer.from(bytes) : undefined;
}
