#!/usr/bin/env node
// Compares two V8 heap snapshots (.heapsnapshot, as `--heapsnapshot-signal` or DevTools write them) by constructor:
// how many objects of each kind, and how many bytes (self size), the second holds more than the first. A leak shows
// as a kind whose count grows with the run (e.g. one per request); V8's own churn stays within a few percent.
//   node bench/soak/heap-compare.js <earlier.heapsnapshot> <later.heapsnapshot> [--top 20]
'use strict';

const { readFileSync } = require('node:fs');

/** Objects per kind in a snapshot: kind → { count, bytes }, plus the totals. */
function summarizeHeapSnapshot(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const typeNames = types[typeAt];
  const { nodes, strings } = snapshot;
  const kinds = new Map();
  let count = 0;
  let bytes = 0;
  for (let offset = 0; offset < nodes.length; offset += width) {
    const type = typeNames[nodes[offset + typeAt]];
    const size = nodes[offset + sizeAt];
    // Objects and closures by constructor name; strings, arrays, code and the rest by their type.
    const kind =
      type === 'object' || type === 'closure' ? `${strings[nodes[offset + nameAt]]} (${type})` : `(${type})`;
    const entry = kinds.get(kind) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += size;
    kinds.set(kind, entry);
    count += 1;
    bytes += size;
  }
  return { kinds, count, bytes };
}

/** Kinds that grew from `earlier` to `later`, most bytes first. */
function heapGrowth(earlier, later) {
  const rows = [];
  for (const [kind, after] of later.kinds) {
    const before = earlier.kinds.get(kind) ?? { count: 0, bytes: 0 };
    rows.push({
      kind,
      countBefore: before.count,
      countAfter: after.count,
      bytesBefore: before.bytes,
      bytesAfter: after.bytes,
    });
  }
  return rows.sort((a, b) => b.bytesAfter - b.bytesBefore - (a.bytesAfter - a.bytesBefore));
}

/** Lines of a report comparing two snapshots. */
function compareHeapSnapshots(earlierFile, laterFile, top = 20) {
  const earlier = summarizeHeapSnapshot(earlierFile);
  const later = summarizeHeapSnapshot(laterFile);
  const mb = (value) => (value / 1048576).toFixed(2);
  const lines = [
    `heap: ${earlier.count} → ${later.count} objects, ${mb(earlier.bytes)} → ${mb(later.bytes)} MB (self sizes)`,
    `${'kind'.padEnd(48)} ${'count before'.padStart(12)} ${'after'.padStart(9)} ${'MB before'.padStart(10)} ${'after'.padStart(8)}`,
  ];
  const grew = heapGrowth(earlier, later).filter(
    (row) => row.countAfter > row.countBefore || row.bytesAfter > row.bytesBefore,
  );
  if (grew.length === 0) lines.push('(no kind of object grew)');
  for (const row of grew.slice(0, top)) {
    lines.push(
      `${row.kind.slice(0, 48).padEnd(48)} ${String(row.countBefore).padStart(12)} ${String(row.countAfter).padStart(9)} ${mb(row.bytesBefore).padStart(10)} ${mb(row.bytesAfter).padStart(8)}`,
    );
  }
  return lines;
}

module.exports = { compareHeapSnapshots, heapGrowth, summarizeHeapSnapshot };

if (require.main === module) {
  const [earlier, later] = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
  const topAt = process.argv.indexOf('--top');
  if (!earlier || !later) {
    process.stderr.write(
      'usage: node bench/soak/heap-compare.js <earlier.heapsnapshot> <later.heapsnapshot> [--top 20]\n',
    );
    process.exit(2);
  }
  for (const line of compareHeapSnapshots(earlier, later, topAt > 0 ? Number(process.argv[topAt + 1]) : 20))
    process.stdout.write(`${line}\n`);
}
