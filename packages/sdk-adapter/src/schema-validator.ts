import { createRequire } from "node:module";
import type { JsonSchema, JsonValue } from "@climpt/model";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";

/** A compiled step schema: `validate` returns the violations as `$.path: message` lines. */
export interface CompiledSchema {
  validate(value: JsonValue): readonly string[];
}

type AjvInstance = Ajv | Ajv2019 | Ajv2020;

/**
 * Ajv is loaded when the first schema is compiled, and only the dialect that schema needs: each
 * dialect is its own tree of modules, and loading all three cost a `climpt run` tens of
 * milliseconds before its first model request.
 */
const loadAjvModule = createRequire(import.meta.url);

/**
 * The dialect a schema declares picks the validator: draft-07 and older → Ajv's draft-07 class,
 * 2019-09 → Ajv2019, 2020-12 or no `$schema` → Ajv2020. `$defs` and `definitions` resolve in all
 * of them. `strict: false` accepts the unknown keywords and formats real step schemas carry
 * (formats are not checked: the API does not enforce them either).
 */
function ajvFor(schema: JsonSchema): AjvInstance {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const options: Options = {
    strict: false,
    allErrors: true,
    validateFormats: false,
    validateSchema: false,
    logger: false,
  };
  if (/draft-0[4-7]/.test(dialect)) {
    const { Ajv: Draft07 } = loadAjvModule("ajv") as typeof import("ajv");
    return new Draft07(options);
  }
  if (dialect.includes("2019-09")) {
    const { Ajv2019: Draft2019 } = loadAjvModule(
      "ajv/dist/2019.js",
    ) as typeof import("ajv/dist/2019.js");
    return new Draft2019(options);
  }
  const { Ajv2020: Draft2020 } = loadAjvModule(
    "ajv/dist/2020.js",
  ) as typeof import("ajv/dist/2020.js");
  return new Draft2020(options);
}

function pointerToPath(pointer: string): string {
  if (pointer === "") return "$";
  let path = "$";
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

/** One line per violation, in words a model (and a person) can act on. */
export function describeError(error: ErrorObject): string {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${path}: missing required property "${String(params.missingProperty)}"`;
    case "additionalProperties":
      return `${path}: property "${String(params.additionalProperty)}" is not allowed`;
    case "enum":
      return `${path}: must be one of ${JSON.stringify(params.allowedValues)}`;
    case "const":
      return `${path}: must be ${JSON.stringify(params.allowedValue)}`;
    case "type":
      return `${path}: must be ${String(params.type)}`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}

const cache = new Map<string, CompiledSchema>();
const CACHE_LIMIT = 256;

/**
 * Compile a step's output schema once (cached by its JSON text) and validate replies with it.
 * A fresh Ajv per schema keeps `$id`s of different steps from colliding. Throws when the schema
 * itself cannot be compiled (an unresolvable `$ref`, a malformed keyword).
 */
export function compileSchema(schema: JsonSchema): CompiledSchema {
  const key = JSON.stringify(schema);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const { $schema: _dialect, ...body } = schema;
  const validator: ValidateFunction = ajvFor(schema).compile(body);
  const compiled: CompiledSchema = {
    validate(value) {
      if (validator(value)) return [];
      const errors = validator.errors ?? [];
      // allErrors reports every failing branch of an anyOf; keep the lines unique.
      return [...new Set(errors.map(describeError))];
    },
  };
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, compiled);
  return compiled;
}

/** The schema as an earlier `compileSchema` compiled it, if any; never compiles. */
export function compiledBefore(schema: JsonSchema): CompiledSchema | undefined {
  return cache.get(JSON.stringify(schema));
}
