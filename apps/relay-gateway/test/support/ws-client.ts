import { type ActivitySet } from '@fieldops/contracts';
import { WebSocket } from 'ws';

/** A raw WebSocket client collecting every ActivitySet frame (and counting empty keep-alives). */
export class FrameCollector {
  readonly frames: ActivitySet[] = [];
  emptyFrames = 0;
  closed = false;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text === '') this.emptyFrames += 1;
      else this.frames.push(JSON.parse(text) as ActivitySet);
    });
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static open(url: string): Promise<FrameCollector> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const collector = new FrameCollector(socket);
      socket.once('open', () => resolve(collector));
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused: ${response.statusCode}`)),
      );
      socket.once('error', reject);
    });
  }

  activityIds(): string[] {
    return this.frames.flatMap((frame) => frame.activities.map((activity) => activity.id ?? ''));
  }

  close(): void {
    this.socket.close();
  }
}
