import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { Public } from '@fieldops/platform';
import { type AiResourceConfig } from '@fieldops/platform-config';
import { badArgument, notFound } from '@fieldops/contracts';
import { InternalKeyGuard } from '../delivery/internal-key.guard';
import { AiResourceKeys, type ResourceKeys } from './ai-resource-keys.service';
import { AiResourceRegistry } from './ai-resource-registry';
import { type RegenerateKeyCommand } from './dto/regenerate-key.dto';

/**
 * Internal (operators, the `ai-keys` CLI): list a resource's keys, regenerate one of them. Same guard as the
 * other internal endpoints (`Authorization: Bearer <CONNECTOR_INTERNAL_KEY>`; 404 while it is unset).
 */
@Public()
@UseGuards(InternalKeyGuard)
@Controller('internal/v1/ai-resources')
export class AiResourceKeysController {
  constructor(
    private readonly registry: AiResourceRegistry,
    private readonly keys: AiResourceKeys,
  ) {}

  @Get(':name/keys')
  list(@Param('name') name: string): Promise<ResourceKeys> {
    return this.keys.keysOf(this.resource(name));
  }

  /** Body `{"keyName": "Key1" | "Key2"}` (as Azure's regenerateKey); answers both keys afterwards. */
  @Post(':name/regenerateKey')
  @HttpCode(200)
  regenerate(@Param('name') name: string, @Body() command: RegenerateKeyCommand): Promise<ResourceKeys> {
    const resource = this.resource(name);
    const keyName = typeof command?.keyName === 'string' ? command.keyName.toLowerCase() : undefined;
    if (keyName !== 'key1' && keyName !== 'key2') throw badArgument('keyName must be "Key1" or "Key2".');
    return this.keys.regenerate(resource, keyName === 'key1' ? 0 : 1);
  }

  private resource(name: string): AiResourceConfig {
    const resource = this.registry.find(name);
    if (!resource) throw notFound(`No AI resource named ${name}.`);
    return resource;
  }
}
