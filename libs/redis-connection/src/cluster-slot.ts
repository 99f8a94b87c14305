import { createRequire } from 'node:module';

/** cluster-key-slot: ioredis's own slot function (the module is the function; it ships no type declarations). */
const slotOfKey = createRequire(__filename)('cluster-key-slot') as (key: string) => number;

const SLOT_COUNT = 16_384;

/** For each slot, the smallest number whose base-36 form hashes there (filled once, on first use). */
let tagNumbersBySlot: Int32Array | undefined;

/** The Redis Cluster slot (0–16383) of a key or shard channel: CRC16 of its hash tag, or of the whole name. */
export function clusterSlotOf(key: string): number {
  return slotOfKey(key);
}

/**
 * A short hash tag (`{…}`) in the given slot, other than any data's own tag: for keys that must live on the slot of
 * a conversation (to be used in its scripts) without being part of its state, such as short-lived request markers.
 */
export function slotTag(slot: number): string {
  if (!Number.isInteger(slot) || slot < 0 || slot >= SLOT_COUNT) throw new RangeError(`no slot ${slot}`);
  tagNumbersBySlot ??= tagNumbers();
  return `{${tagNumbersBySlot[slot].toString(36)}}`;
}

/** About 170,000 CRC16s of short strings (a few milliseconds), until every slot has one. */
function tagNumbers(): Int32Array {
  const numbers = new Int32Array(SLOT_COUNT).fill(-1);
  let filled = 0;
  for (let candidate = 0; filled < SLOT_COUNT; candidate += 1) {
    const slot = slotOfKey(candidate.toString(36));
    if (numbers[slot] === -1) {
      numbers[slot] = candidate;
      filled += 1;
    }
  }
  return numbers;
}
