import { RateLimitStore } from '@fieldops/rate-limits';
import { type RelayGatewayEnvironment } from '../config/relay-gateway.environment';
import { type Credential } from '../direct-line/credentials';
import { UploadQuota } from './upload-quota.service';

const environment = {
  RELAY_UPLOAD_QUOTA_WINDOW_SECONDS: 600,
  RELAY_UPLOAD_BYTES_PER_CONVERSATION: 1000,
  RELAY_UPLOAD_FILES_PER_CONVERSATION: 3,
  RELAY_UPLOAD_BYTES_PER_TOKEN: 1500,
  RELAY_UPLOAD_FILES_PER_TOKEN: 5,
} as RelayGatewayEnvironment;
const credential = (key: string): Credential => ({ kind: 'secret', bot: { id: 'b' } as never, key });
const tooMany = (per: string) =>
  expect.objectContaining({
    status: 429,
    code: 'TooManyRequests',
    message: `The upload quota of this ${per} is used up`,
  }) as Error;

describe('UploadQuota', () => {
  const quota = () => new UploadQuota(new RateLimitStore({ kind: 'memory' }), environment);

  it('counts bytes and files per conversation: the upload that crosses a quota is refused with 429', async () => {
    const q = quota();
    await q.take(credential('t1'), 'c1', { bytes: 400, files: 1 });
    await q.take(credential('t2'), 'c1', { bytes: 400, files: 1 });
    await expect(q.take(credential('t3'), 'c1', { bytes: 400, files: 1 })).rejects.toThrow(
      tooMany('conversation'),
    );
    // Another conversation has its own quota.
    await q.take(credential('t4'), 'c2', { bytes: 400, files: 1 });
  });

  it('counts per token (or secret) across its conversations', async () => {
    const q = quota();
    const token = credential('t1');
    await q.take(token, 'c1', { bytes: 900, files: 1 });
    await expect(q.take(token, 'c2', { bytes: 700, files: 1 })).rejects.toThrow(tooMany('token'));
  });

  it('counts files as well as bytes', async () => {
    const q = quota();
    await q.take(credential('t1'), 'c1', { bytes: 1, files: 3 });
    await expect(q.take(credential('t2'), 'c1', { bytes: 1, files: 1 })).rejects.toThrow(
      tooMany('conversation'),
    );
  });

  it("refuses with 413 an upload larger than a whole window's quota, before counting it", async () => {
    const q = quota();
    await expect(q.take(credential('t1'), 'c1', { bytes: 1001, files: 1 })).rejects.toThrow(
      expect.objectContaining({ status: 413, code: 'MessageSizeTooBig' }) as Error,
    );
    // Nothing was counted: the full quota is still there.
    await q.take(credential('t1'), 'c1', { bytes: 1000, files: 1 });
  });

  it('assertOpen: open until a quota of the conversation or the credential is used up, then 429', async () => {
    const q = quota();
    await q.assertOpen(credential('t1'), 'c1');
    await q.take(credential('t1'), 'c1', { bytes: 1000, files: 1 });
    await expect(q.assertOpen(credential('t2'), 'c1')).rejects.toThrow(tooMany('conversation'));
    await q.assertOpen(credential('t2'), 'c2');
  });
});
