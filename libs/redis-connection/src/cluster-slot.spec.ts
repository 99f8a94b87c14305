import { clusterSlotOf, slotTag } from './cluster-slot';
import { hashTag } from './redis-url';

describe('cluster slots', () => {
  it('computes the slot of a key as Redis Cluster does (its hash tag only, when it has one)', () => {
    // Values from the Redis Cluster specification's CRC16 (XMODEM) reference: "123456789" → 0x31C3.
    expect(clusterSlotOf('123456789')).toBe(0x31c3 % 16_384);
    expect(clusterSlotOf('fieldops:store:conversation:{abc}:log')).toBe(clusterSlotOf('abc'));
    expect(clusterSlotOf(`x:${hashTag('a}b')}`)).toBe(clusterSlotOf(hashTag('a}b')));
  });

  it('gives every slot a short tag of its own that hashes there', () => {
    for (const slot of [0, 1, 5_000, 12_539, 16_383]) {
      const tag = slotTag(slot);
      expect(tag).toMatch(/^\{[0-9a-z]{1,6}\}$/);
      expect(clusterSlotOf(`marker:${tag}:key`)).toBe(slot);
    }
    expect(clusterSlotOf(`m:${slotTag(clusterSlotOf(hashTag('conv-1')))}`)).toBe(clusterSlotOf('{conv-1}'));
    expect(() => slotTag(16_384)).toThrow(RangeError);
  });
});
