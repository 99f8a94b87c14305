import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { create, type Font } from 'fontkit';

/**
 * The typeface of every report: Noto Sans Hans Regular (SIL Open Font License) from the `@embedpdf/fonts-sc` npm
 * package, so `npm install` alone brings a font with the CJK glyphs of Simplified Chinese (GB 2312) and Latin
 * text on every machine (docs/decisions/pdf-reports.md). pdfkit embeds only the glyphs a report uses.
 */
export function reportFontPath(): string {
  // The package exports no subpath for its font files: they sit beside its `dist/` entry point.
  return join(dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts', 'NotoSansHans-Regular.otf');
}

let parsed: Font | undefined;

/**
 * The font, parsed once per process (about 0.7 s of CPU and 8 MB read): pdfkit takes a parsed fontkit font as well
 * as the file, and makes each document's subset from it.
 */
export function reportFont(): Font {
  if (!parsed) {
    const font = create(readFileSync(reportFontPath()));
    if (!('layout' in font)) throw new Error('the report font is a collection, not one font');
    parsed = font;
  }
  return parsed;
}
