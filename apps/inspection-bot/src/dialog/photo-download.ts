import { type PhotoFile } from '../inspection-api/inspection-api.types';

export class PhotoDownloadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PhotoDownloadError';
  }
}

/**
 * Downloads a chat attachment from its `contentUrl`: relay-gateway serves uploads at a signed URL
 * (`…/v3/directline/attachments/{conversation}/{attachment}/{name}?t=…`) that needs no other credential.
 */
export async function downloadAttachment(
  attachment: { contentUrl: string; contentType: string; name: string },
  maxBytes: number,
  timeoutMs = 15_000,
): Promise<PhotoFile> {
  let response: Response;
  try {
    response = await fetch(attachment.contentUrl, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new PhotoDownloadError(`download of ${attachment.name} failed`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PhotoDownloadError(`download of ${attachment.name} answered ${response.status}`);
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > maxBytes) throw new PhotoDownloadError(`${attachment.name} exceeds ${maxBytes} bytes`);
  return {
    data,
    name: attachment.name,
    contentType: response.headers.get('content-type')?.split(';')[0] ?? attachment.contentType,
  };
}
