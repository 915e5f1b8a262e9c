import { isJsonValue, type JsonValue } from "@climpt/model";
import * as v from "valibot";

/**
 * Any JSON value. A `custom` schema, so the JSON Schema generator maps it to `{}` (see
 * json-schema-files.ts): in a JSON file every value is JSON already.
 */
export const jsonValueSchema = v.custom<JsonValue>((input) => isJsonValue(input), "a JSON value");
