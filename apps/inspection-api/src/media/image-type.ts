/** Recognises an image by its first bytes (as Pillow would open it); returns the file extension. */
export function imageExtension(content: Buffer): string | undefined {
  const starts = (bytes: number[], offset = 0): boolean =>
    content.length >= offset + bytes.length && bytes.every((byte, index) => content[offset + index] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]))
    return 'gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (starts([0x42, 0x4d]) && content.length >= 26) return 'bmp';
  if (starts([0x49, 0x49, 0x2a, 0x00]) || starts([0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  return undefined;
}

export const IMAGE_CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
};

/** A safe extension from an uploaded file's name (letters and digits, lower case, at most 10), or ''. */
export function safeExtension(filename: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename);
  return match?.[1]?.toLowerCase() ?? '';
}
