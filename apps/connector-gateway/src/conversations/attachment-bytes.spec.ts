import { attachmentBytes } from './attachment-bytes';

describe('attachmentBytes', () => {
  it('reads base64 and the JSON of a Buffer or Uint8Array (what the Agents SDK for JavaScript sends)', () => {
    const bytes = Buffer.from('agent report');
    expect(attachmentBytes(bytes.toString('base64'))).toEqual(bytes);
    expect(attachmentBytes(JSON.parse(JSON.stringify(bytes)))).toEqual(bytes);
    expect(attachmentBytes(JSON.parse(JSON.stringify(new Uint8Array(bytes))))).toEqual(bytes);
    expect(attachmentBytes(JSON.parse(JSON.stringify(new Uint8Array())))).toEqual(Buffer.alloc(0));
  });

  it('refuses anything else', () => {
    expect(attachmentBytes('not base64!')).toBeUndefined();
    expect(attachmentBytes(42)).toBeUndefined();
    expect(attachmentBytes(null)).toBeUndefined();
    expect(attachmentBytes([1, 2])).toBeUndefined();
    expect(attachmentBytes({ type: 'Buffer', data: [1, 256] })).toBeUndefined();
    expect(attachmentBytes({ type: 'Buffer', data: [1], extra: true })).toBeUndefined();
    expect(attachmentBytes({ 0: 1, 2: 3 })).toBeUndefined();
    expect(attachmentBytes({ 0: 'a' })).toBeUndefined();
  });
});
