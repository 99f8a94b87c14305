/** The CheckItem representation of alias `i` (a `json` value). */
export const CHECK_ITEM_JSON = `json_build_object('id', i."id", 'name', i."name", 'description', i."description", 'expected_value', i."expected_value", 'device', i."device_id", 'type', i."type", 'unit', i."unit", 'min', i."min", 'max', i."max", 'options', to_json(i."options"))`;

/** JSON text of a column, escaped as row_to_json escapes it. */
const jsonText = (column: string): string => `to_json(${column})::text`;

/** The CheckItem representation of alias `ci` as compact JSON text (nested in a device's). */
export const CHECK_ITEM_TEXT = `'{"id":' || ci."id" || ',"name":' || ${jsonText('ci."name"')} || ',"description":' || ${jsonText('ci."description"')} || ',"expected_value":' || ${jsonText('ci."expected_value"')} || ',"device":' || ci."device_id" || ',"type":' || ${jsonText('ci."type"')} || ',"unit":' || ${jsonText('ci."unit"')} || ',"min":' || COALESCE(${jsonText('ci."min"')}, 'null') || ',"max":' || COALESCE(${jsonText('ci."max"')}, 'null') || ',"options":' || ${jsonText('ci."options"')} || '}'`;
