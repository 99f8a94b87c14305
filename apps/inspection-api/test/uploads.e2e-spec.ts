import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestApi } from './support/test-api';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

function form(
  fields: Record<string, string>,
  files: Record<string, [Buffer, string, string?]> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const [name, [content, filename, type]] of Object.entries(files))
    data.append(
      name,
      new Blob([new Uint8Array(content)], { type: type ?? 'application/octet-stream' }),
      filename,
    );
  return data;
}

describe('record photos and attachments', () => {
  let api: TestApi;
  let device: number;
  beforeAll(async () => {
    api = await TestApi.start('inspection_uploads', {
      INSPECTION_MAX_PHOTO_BYTES: '1000',
      INSPECTION_MAX_ATTACHMENT_BYTES: '2000',
    });
    device = (await api.createDevice()).id;
  });
  afterAll(() => api?.close());

  const stored = (kind: string): string[] =>
    existsSync(join(api.mediaRoot, kind)) ? readdirSync(join(api.mediaRoot, kind)) : [];

  it('uploads a photo and an attachment with multipart and serves them at the URLs the record shows', async () => {
    const created = await api.call('POST', '/api/records/', {
      raw: form(
        { status: 'ok', device: String(device), plan: '', checked_by: 'bob' },
        { photo: [PNG, 'p.png', 'image/png'], attachment: [Buffer.from('report'), 'r.pdf'] },
      ),
    });
    expect(created.status).toBe(201);
    const record = created.body as { id: number; photo: string; attachment: string; plan: null };
    expect(record.plan).toBeNull();
    expect(record.photo).toMatch(new RegExp(`^${api.url}/media/photos/[0-9a-f]{32}\\.png$`));
    expect(record.attachment).toMatch(new RegExp(`^${api.url}/media/attachments/[0-9a-f]{32}\\.pdf$`));

    const photo = await fetch(record.photo);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer()).equals(PNG)).toBe(true);
    const attachment = await fetch(record.attachment);
    expect(attachment.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await attachment.text()).toBe('report');

    // Replacing the photo removes the old file; clearing the attachment removes it too.
    const replaced = await api.call('PATCH', `/api/records/${record.id}/`, {
      raw: form({ attachment: '' }, { photo: [JPEG, 'new.jpg', 'image/jpeg'] }),
    });
    expect(replaced.status).toBe(200);
    const updated = replaced.body as { photo: string; attachment: null };
    expect(updated.photo).toMatch(/\.jpg$/);
    expect(updated.attachment).toBeNull();
    expect((await fetch(record.photo)).status).toBe(404);
    expect((await fetch(record.attachment)).status).toBe(404);
    expect(stored('photos')).toHaveLength(1);

    // JSON cannot touch the files (read-only there).
    const json = await api.patch(`/api/records/${record.id}/`, { photo: null, note: 'n' });
    expect(json.body).toMatchObject({ photo: updated.photo, note: 'n' });

    expect((await api.delete(`/api/records/${record.id}/`)).status).toBe(204);
    expect((await fetch(updated.photo)).status).toBe(404);
    expect(stored('photos')).toHaveLength(0);
  });

  it('checks the photo by content, refuses empty files and text where a file belongs', async () => {
    const notImage = await api.call('POST', '/api/records/', {
      raw: form(
        { status: 'ok', device: String(device) },
        { photo: [Buffer.from('<html>'), 'x.png', 'image/png'] },
      ),
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body).toEqual({
      photo: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'],
    });
    const empty = await api.call('POST', '/api/records/', {
      raw: form({ status: 'nope', device: String(device) }, { attachment: [Buffer.alloc(0), 'e.txt'] }),
    });
    expect(empty.body).toEqual({
      status: ['"nope" is not a valid choice.'],
      attachment: ['The submitted file is empty.'],
    });
    const text = await api.call('POST', '/api/records/', {
      raw: form({ status: 'ok', device: String(device), photo: 'abc' }),
    });
    expect(text.body).toEqual({
      photo: ['The submitted data was not a file. Check the encoding type on the form.'],
    });
    expect(stored('photos')).toHaveLength(0);
  });

  it('answers 413 for files over their limit and 400 for a broken multipart body', async () => {
    const bigPhoto = await api.call('POST', '/api/records/', {
      raw: form(
        { status: 'ok', device: String(device) },
        { photo: [Buffer.concat([PNG, Buffer.alloc(1500)]), 'big.png'] },
      ),
    });
    expect(bigPhoto.status).toBe(413);
    expect(bigPhoto.body).toEqual({ detail: 'The photo exceeds the limit of 1000 bytes.' });
    const bigAttachment = await api.call('POST', '/api/records/', {
      raw: form({ status: 'ok', device: String(device) }, { attachment: [Buffer.alloc(5000, 1), 'big.bin'] }),
    });
    expect(bigAttachment.status).toBe(413);
    const broken = await api.call('POST', '/api/records/', {
      raw: '--x\r\nContent-Disposition: form-data; name="status"\r\n\r\nok',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.status).toBe(400);
    expect((broken.body as { detail: string }).detail).toMatch(/^Multipart form parse error - /);
    expect((await fetch(`${api.url}/media/photos/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${api.url}/media/photos/0123`)).status).toBe(404);
  });

  it('treats form input like DRF: omitted booleans are false on a full write, repeated keys are lists', async () => {
    const other = (await api.createDevice()).id;
    const plan = await api.call('POST', '/api/plans/', {
      raw: form({ name: 'Form plan', frequency: 'daily' }),
    });
    expect(plan.body).toEqual({ devices: ['This list may not be empty.'] });
    const data = new URLSearchParams([
      ['name', 'Form plan'],
      ['frequency', 'daily'],
      ['devices', String(device)],
      ['devices', String(other)],
    ]);
    const created = await api.call('POST', '/api/plans/', {
      raw: data.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ devices: [device, other], active: false });
  });

  // Last: a second instance in this process replaces the first one's passport strategy (passport's registry
  // is process-wide), so nothing may call the first instance's authenticated routes after this.
  it('keeps files across a restart of the service', async () => {
    const created = await api.call('POST', '/api/records/', {
      raw: form({ status: 'ok', device: String(device) }, { photo: [PNG, 'p.png', 'image/png'] }),
    });
    const photo = (created.body as { photo: string }).photo;
    const second = await api.restartLike();
    try {
      const again = await fetch(photo.replace(api.url, second.url));
      expect(again.status).toBe(200);
      expect(Buffer.from(await again.arrayBuffer()).equals(PNG)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
