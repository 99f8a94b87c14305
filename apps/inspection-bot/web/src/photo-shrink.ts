import { type RefusalReason } from './page-direct-line';

/** The relay's upload cap (relay-gateway's default, 4 MiB): the page aims under it; the relay's 413 decides. */
export const UPLOAD_LIMIT_BYTES = 4 * 1024 * 1024;
/** The long side a photo is brought down to: plenty for a gauge or a label, a fraction of a camera's bytes. */
export const LONG_SIDE_PX = 2048;
const QUALITIES = [0.85, 0.72, 0.6];

export interface ShrinkResult {
  blob: Blob;
  name: string;
  /** Set when even the smallest re-encoding (or the file as it is) stays over the limit. */
  refusal?: RefusalReason;
}

function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'photo';
  return `${base}.jpg`;
}

async function encode(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.drawImage(bitmap, 0, 0, width, height);
  return canvas.convertToBlob({ type: 'image/jpeg', quality });
}

/**
 * A camera photo made fit to send: decoded with its EXIF orientation applied (`imageOrientation: 'from-image'`),
 * scaled so its long side is at most 2048 px and re-encoded as JPEG — which writes no EXIF, so GPS position,
 * camera serial and the like are gone. JPEGs are always re-encoded (they carry the camera's metadata) unless
 * `keepMetadata` is on and the file is already under the limit; other pictures (PNG, WebP …) go as they are when
 * they are small enough. A file that cannot be decoded goes as it is (the relay may still take it), with a
 * refusal when it is over the limit.
 */
export async function shrinkPhoto(
  blob: Blob,
  name: string,
  { keepMetadata }: { keepMetadata: boolean },
): Promise<ShrinkResult> {
  const isJpeg = blob.type === 'image/jpeg' || /\.jpe?g$/i.test(name);
  const tooLarge: RefusalReason = { kind: 'too-large', bytes: blob.size, limitBytes: UPLOAD_LIMIT_BYTES };
  if (keepMetadata && blob.size <= UPLOAD_LIMIT_BYTES) return { blob, name };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    return blob.size <= UPLOAD_LIMIT_BYTES ? { blob, name } : { blob, name, refusal: tooLarge };
  }
  try {
    const longSide = Math.max(bitmap.width, bitmap.height);
    if (!isJpeg && longSide <= LONG_SIDE_PX && blob.size <= UPLOAD_LIMIT_BYTES) return { blob, name };
    let scale = Math.min(1, LONG_SIDE_PX / longSide);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      for (const quality of QUALITIES) {
        const encoded = await encode(bitmap, width, height, quality);
        if (encoded.size <= UPLOAD_LIMIT_BYTES) return { blob: encoded, name: jpegName(name) };
      }
      scale *= 0.7;
    }
    return { blob, name, refusal: tooLarge };
  } finally {
    bitmap.close();
  }
}
