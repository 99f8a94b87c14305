import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '@fieldops/platform';

export type MediaKind = 'photos' | 'attachments';

/** Storage keys look like `photos/<32 hex>.jpg`: random, so nobody can guess another record's file. */
export const MEDIA_KEY = /^(photos|attachments)\/[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/;

/**
 * Where uploaded files live. The default implementation is a local directory (INSPECTION_MEDIA_ROOT);
 * another backend (object storage shared by replicas) implements the same four operations.
 */
export abstract class MediaStorage {
  /** Stores the bytes under a new random key and returns the key. */
  abstract save(kind: MediaKind, content: Buffer, extension: string): Promise<string>;
  /** Absolute path of a stored file, or undefined for a key that is not well-formed. */
  abstract pathOf(key: string): string | undefined;
  /** Removes files; missing files and null keys are ignored, failures are logged, never thrown. */
  abstract removeAll(keys: Array<string | null | undefined>): Promise<void>;
}

export const MEDIA_ROOT = Symbol('MEDIA_ROOT');

@Injectable()
export class LocalDirectoryMediaStorage extends MediaStorage {
  private readonly root: string;

  constructor(
    @Inject(MEDIA_ROOT) root: string,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
    this.root = resolve(root);
  }

  async save(kind: MediaKind, content: Buffer, extension: string): Promise<string> {
    const key = `${kind}/${randomBytes(16).toString('hex')}${extension ? `.${extension}` : ''}`;
    const target = join(this.root, key);
    await mkdir(join(this.root, kind), { recursive: true });
    const temporary = `${target}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(temporary, content, { flag: 'wx' });
    await rename(temporary, target);
    return key;
  }

  pathOf(key: string): string | undefined {
    return MEDIA_KEY.test(key) ? join(this.root, key) : undefined;
  }

  async removeAll(keys: Array<string | null | undefined>): Promise<void> {
    for (const key of keys) {
      const path = key ? this.pathOf(key) : undefined;
      if (!path) continue;
      await rm(path, { force: true }).catch((error: unknown) =>
        this.logger.warn({ err: error, key }, 'could not remove a media file'),
      );
    }
  }
}
