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
