import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes (Linux /proc), or undefined when it is gone or unreadable. */
export function residentSetBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process plus its direct children (nginx: the master and its workers). */
export function residentSetBytesWithChildren(pid: number | undefined): number | undefined {
  const own = residentSetBytes(pid);
  if (own === undefined) return undefined;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((text) => text !== '')
      .map(Number);
  } catch {
    // No children file (older kernels): the process alone.
  }
  return children.reduce((sum, child) => sum + (residentSetBytes(child) ?? 0), own);
}
