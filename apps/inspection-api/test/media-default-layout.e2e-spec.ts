import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { InspectionApiEnvironment } from '../src/config/inspection-api.environment';
import { TestApi } from './support/test-api';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);

/**
 * The default media root is `<repo>/.data/media`: a path with a dot segment. `send` (behind Express's sendFile)
 * refuses dot segments in the path it is given, so photos answered 404 on the default configuration.
 */
describe('media served from the default layout (a media root under .data)', () => {
  let api: TestApi;
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'inspection-layout-'));
    api = await TestApi.start('inspection_media_layout', {
      INSPECTION_MEDIA_ROOT: join(directory, '.data', 'media'),
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('defaults to <repo>/.data/media', () => {
    expect(new InspectionApiEnvironment().INSPECTION_MEDIA_ROOT.endsWith(`${sep}.data${sep}media`)).toBe(
      true,
    );
  });

  it('serves a record photo and attachment with 200, their bytes and content types', async () => {
    const device = await api.createDevice();
    const data = new FormData();
    data.append('status', 'ok');
    data.append('device', String(device.id));
    data.append('photo', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
    data.append('attachment', new Blob([new Uint8Array(Buffer.from('report'))]), 'r.pdf');
    const created = await api.call('POST', '/api/records/', { raw: data });
    expect(created.status).toBe(201);
    const record = created.body as { photo: string; attachment: string };

    const photo = await fetch(record.photo);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer()).equals(PNG)).toBe(true);

    const attachment = await fetch(record.attachment);
    expect(attachment.status).toBe(200);
    expect(attachment.headers.get('content-type')).toBe('application/octet-stream');
    expect(await attachment.text()).toBe('report');

    // A dot segment inside the key itself is still refused.
    expect((await fetch(`${api.url}/media/photos/..%2F.hidden`)).status).toBe(404);
  });
});
