import sharp from 'sharp';

/**
 * A record photo as a report prints it: decoded from its file, turned upright by its EXIF orientation, shrunk to fit
 * PHOTO_PIXELS on its longer side and re-encoded as a JPEG (pdfkit embeds JPEG and PNG only; uploads may also be
 * GIF, WebP, BMP or TIFF). One photo at a time: the report holds at most one decoded photo and its small JPEG.
 */
export const PHOTO_PIXELS = 480;

// libvips' operation cache would keep decoded photos between calls: a report reads each photo once.
sharp.cache(false);

export function downscalePhoto(path: string): Promise<Buffer> {
  return sharp(path, { failOn: 'error', limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: PHOTO_PIXELS, height: PHOTO_PIXELS, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 70 })
    .toBuffer();
}
