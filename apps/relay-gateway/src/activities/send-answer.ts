import { type ServerResponse } from 'node:http';
import { type SendResult } from './activities.service';

/**
 * Writes the answer to a send: `Server-Timing` with the gateway's own processing, then the echo's id (200), or, for
 * an invoke the bot answered, the bot's status and body. One write of headers and body; no ETag (a POST's answer is
 * never revalidated, and the Direct Line service sends none).
 */
export function writeSendAnswer(response: ServerResponse, result: SendResult): void {
  // An invoke gets the bot's invoke response (status and body); a bot that sent no body gets the id, as any send.
  const status = result.invokeResponse?.status ?? 200;
  const body = JSON.stringify(result.invokeResponse?.body ?? { id: result.id });
  response.statusCode = status;
  response.setHeader('Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`);
  if (status === 204 || status === 304) {
    // No body with these statuses (as Express answers them).
    response.end();
    return;
  }
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(body));
  response.end(body);
}
