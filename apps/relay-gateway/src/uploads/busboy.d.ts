declare module 'busboy' {
  import { type IncomingHttpHeaders } from 'node:http';
  import { type Readable, type Writable } from 'node:stream';

  interface FileInfo {
    filename: string | undefined;
    encoding: string;
    mimeType: string;
  }

  interface Busboy extends Writable {
    on(
      event: 'file',
      listener: (name: string, stream: Readable & { truncated?: boolean }, info: FileInfo) => void,
    ): this;
    on(event: 'field', listener: (name: string, value: string, info: { mimeType: string }) => void): this;
    on(event: 'close' | 'finish', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'filesLimit' | 'partsLimit' | 'fieldsLimit', listener: () => void): this;
  }

  function busboy(config: {
    headers: IncomingHttpHeaders;
    limits?: { fileSize?: number; files?: number; parts?: number; fieldSize?: number };
  }): Busboy;

  export = busboy;
}
