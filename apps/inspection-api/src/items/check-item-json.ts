import { schemaJsonObject, schemaJsonText } from '../drf/resource-schema';
import { CHECK_ITEM_SCHEMA } from './check-item.schema';

/** The CheckItem representation of alias `i` (a `json` value; `CHECK_ITEM_SCHEMA`'s fields). */
export const CHECK_ITEM_JSON = schemaJsonObject(CHECK_ITEM_SCHEMA, 'i');

/** The CheckItem representation of alias `ci` as compact JSON text (nested in a device's). */
export const CHECK_ITEM_TEXT = schemaJsonText(CHECK_ITEM_SCHEMA, 'ci');
