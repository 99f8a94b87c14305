import { applyOpenApiProperties, schemaFieldSpecs, schemaInfo } from '../../drf/resource-schema';
import { CHECK_ITEM_SCHEMA } from '../check-item.schema';

/** A check item as the API shows it (its OpenAPI properties are declared from `CHECK_ITEM_SCHEMA`). */
export class CheckItemDto {
  declare id: number;
  declare name: string;
  declare description: string;
  declare expected_value: string;
  declare device: number;
  declare type: string;
  declare unit: string;
  declare min: number | null;
  declare max: number | null;
  declare options: string[];
}
applyOpenApiProperties(CheckItemDto, CHECK_ITEM_SCHEMA, 'read');

/** What a client writes (read-only and unknown keys are ignored). */
export class CheckItemInputDto {
  declare name: string;
  declare description?: string;
  declare expected_value?: string;
  declare device: number;
  declare type?: string;
  declare unit?: string;
  declare min?: number | null;
  declare max?: number | null;
  declare options?: string[];
}
applyOpenApiProperties(CheckItemInputDto, CHECK_ITEM_SCHEMA, 'write');

/** The check-item serializer's fields the DRF field table validates (`min`, `max`, `options`: `item-type.ts`). */
export const CHECK_ITEM_FIELDS = schemaFieldSpecs(CHECK_ITEM_SCHEMA);

/** The OPTIONS description of the check-item serializer (DRF SimpleMetadata). */
export const CHECK_ITEM_INFO = schemaInfo(CHECK_ITEM_SCHEMA);
