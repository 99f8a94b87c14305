// What Linux says about a process and the machine's sockets (/proc), for the capacity benches.
'use strict';

const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE']).toString().trim()) || 4096;

/** CPU time (user + system, milliseconds) a process has used so far; undefined when it is gone. */
function cpuMilliseconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds of a process plus its direct children (nginx: the master and its workers). */
function cpuWithChildrenMilliseconds(pid) {
  const own = pid === undefined ? undefined : cpuMilliseconds(pid);
  if (own === undefined) return undefined;
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // No children file (older kernels): the process alone.
  }
  return children.reduce((sum, child) => sum + (cpuMilliseconds(Number(child)) ?? 0), own);
}

/** Resident set size in bytes; undefined when the process is gone. */
function residentSetBytes(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The kernel's TCP sockets in use and the memory their buffers hold (all processes): /proc/net/sockstat. */
function tcpSocketMemory() {
  const text = readFileSync('/proc/net/sockstat', 'utf8');
  const match = /^TCP: inuse (\d+) orphan \d+ tw \d+ alloc (\d+) mem (\d+)$/m.exec(text);
  return match
    ? { inUse: Number(match[1]), allocated: Number(match[2]), bytes: Number(match[3]) * PAGE_BYTES }
    : { inUse: NaN, allocated: NaN, bytes: NaN };
}

/** The open-files limit of a process (`Max open files` soft limit). */
function openFilesLimit(pid = process.pid) {
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return match?.[1] === 'unlimited' ? Infinity : Number(match?.[1]);
}

/** CPU milliseconds of several labelled processes at once: `{ label: ms }`. */
function cpuOf(processes) {
  return Object.fromEntries(Object.entries(processes).map(([label, pid]) => [label, cpuMilliseconds(pid)]));
}

module.exports = {
  cpuMilliseconds,
  cpuOf,
  cpuWithChildrenMilliseconds,
  openFilesLimit,
  residentSetBytes,
  tcpSocketMemory,
};
