import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type AiResourceConfig } from '@fieldops/platform-config';
import { AiResourceRegistry } from './ai-resource-registry';
import {
  type KeyIndex,
  newResourceKey,
  RESOURCE_KEY_STORE,
  regeneratedKeyField,
  type ResourceKeyStore,
} from './resource-key-store';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export interface ResourceKeys {
  key1: string;
  key2: string;
}

/** The keys in force: configured keys, each replaced by its latest regeneration (shared through the key store). */
@Injectable()
export class AiResourceKeys {
  constructor(
    private readonly registry: AiResourceRegistry,
    @Inject(RESOURCE_KEY_STORE) private readonly store: ResourceKeyStore,
  ) {}

  /** The resource one of whose current keys this is (compared in constant time), with the key's index. */
  async findByKey(key: string): Promise<{ resource: AiResourceConfig; index: KeyIndex } | undefined> {
    const regenerated = await this.store.regeneratedKeys();
    const presented = digest(key);
    let found: { resource: AiResourceConfig; index: KeyIndex } | undefined;
    for (const resource of this.registry.resources) {
      for (const index of [0, 1] as const) {
        const current = regenerated.get(regeneratedKeyField(resource.name, index)) ?? resource.keys[index];
        if (timingSafeEqual(digest(current), presented)) found ??= { resource, index };
      }
    }
    return found;
  }

  async keysOf(resource: AiResourceConfig): Promise<ResourceKeys> {
    const regenerated = await this.store.regeneratedKeys();
    const [key1, key2] = ([0, 1] as const).map(
      (index) => regenerated.get(regeneratedKeyField(resource.name, index)) ?? resource.keys[index],
    ) as [string, string];
    return { key1, key2 };
  }

  /** Replaces one key with a new random one; the other key keeps working. */
  async regenerate(resource: AiResourceConfig, index: KeyIndex): Promise<ResourceKeys> {
    await this.store.store(resource.name, index, newResourceKey());
    return this.keysOf(resource);
  }
}
