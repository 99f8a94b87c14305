import { type ServerResponse } from 'node:http';
import { writeJsonAnswer } from '@fieldops/platform';
import { type SendResult } from './activities.service';

/**
 * Writes the answer to a send: `Server-Timing` with the gateway's own processing, then the echo's id (200), or, for
 * an invoke the bot answered, the bot's status and body. One write of headers and body; no ETag (a POST's answer is
 * never revalidated, and the Direct Line service sends none).
 */
export function writeSendAnswer(response: ServerResponse, result: SendResult): void {
  response.setHeader('Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`);
  // An invoke gets the bot's invoke response (status and body); a bot that sent no body gets the id, as any send.
  writeJsonAnswer(
    response,
    result.invokeResponse?.status ?? 200,
    result.invokeResponse?.body ?? { id: result.id },
  );
}
