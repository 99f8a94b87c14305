// Reads a PDF back with pdf-parse (pdf.js) in a plain Node process — pdf.js starts its worker with a dynamic
// import, which Jest's module sandbox refuses — and prints its text, page count and image count as JSON.
import { readFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';

const parser = new PDFParse({ data: new Uint8Array(await readFile(process.argv[2])) });
try {
  const text = await parser.getText();
  const images = await parser.getImage({ imageThreshold: 0, imageDataUrl: false, imageBuffer: false });
  const count = images.pages.reduce((sum, page) => sum + page.images.length, 0);
  process.stdout.write(JSON.stringify({ text: text.text, pages: text.total, images: count }));
} finally {
  await parser.destroy();
}
