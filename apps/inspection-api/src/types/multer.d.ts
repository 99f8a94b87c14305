// multer ships no types and @types/multer is not installed: the small surface this app uses.
declare module 'multer' {
  import { type RequestHandler } from 'express';

  interface Limits {
    fileSize?: number;
    files?: number;
    fields?: number;
    parts?: number;
    fieldSize?: number;
  }
  interface Instance {
    any(): RequestHandler;
  }
  interface Multer {
    (options: { storage: unknown; limits?: Limits }): Instance;
    memoryStorage(): unknown;
  }
  const multer: Multer;
  export default multer;
}
