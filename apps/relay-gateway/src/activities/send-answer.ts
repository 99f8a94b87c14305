import { type ServerResponse } from 'node:http';
import { type HotAnswer, writeHotAnswer } from '@fieldops/platform';
import { type SendResult } from './activities.service';

/**
 * The answer to a send: `Server-Timing` with the gateway's own processing, then the echo's id (200), or, for an
 * invoke the bot answered, the bot's status and body. No ETag (a POST's answer is never revalidated, and the Direct
 * Line service sends none).
 */
export function sendAnswer(result: SendResult): HotAnswer {
  // An invoke gets the bot's invoke response (status and body); a bot that sent no body gets the id, as any send.
  return {
    status: result.invokeResponse?.status ?? 200,
    body: result.invokeResponse?.body ?? { id: result.id },
    headers: ['Server-Timing', `relay;dur=${result.processingMs.toFixed(3)}`],
  };
}

/** Writes sendAnswer on the framework's route: one write of headers and body. */
export function writeSendAnswer(response: ServerResponse, result: SendResult): void {
  writeHotAnswer(response, sendAnswer(result));
}
