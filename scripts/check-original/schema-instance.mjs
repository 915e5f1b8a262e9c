// A small valid instance of a step's output schema, for the scripted model replies of
// `scripts/check-original.mjs`: every required property filled with the simplest value its
// schema allows (a const, the first enum value, "", 0, false, []), then the reply's own fields
// laid over it. Local `$ref`s (`#/…`) are followed; `anyOf` / `oneOf` take their first branch.

function resolve(root, schema, depth) {
  if (depth > 32 || schema === null || typeof schema !== "object") return schema ?? {};
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) {
    let target = root;
    for (const part of schema.$ref
      .slice(2)
      .split("/")
      .filter((p) => p !== "")) {
      target = target?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return resolve(root, target, depth + 1);
  }
  return schema;
}

function typeOf(schema) {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null") ?? "null";
  if (typeof schema.type === "string") return schema.type;
  if (schema.properties !== undefined || schema.required !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

export function instanceOf(root, given, depth = 0) {
  const schema = resolve(root, given, depth);
  if (depth > 32) return null;
  if (Object.hasOwn(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (branch !== undefined && typeOf(schema) === undefined)
    return instanceOf(root, branch, depth + 1);
  let merged = schema;
  for (const part of schema.allOf ?? []) {
    const resolved = resolve(root, part, depth + 1);
    merged = {
      ...merged,
      ...resolved,
      properties: { ...merged.properties, ...resolved.properties },
      required: [...(merged.required ?? []), ...(resolved.required ?? [])],
    };
  }
  switch (typeOf(merged)) {
    case "object": {
      const value = {};
      for (const key of new Set(merged.required ?? [])) {
        value[key] = instanceOf(root, merged.properties?.[key] ?? {}, depth + 1);
      }
      return value;
    }
    case "array": {
      const count = merged.minItems ?? 0;
      return Array.from({ length: count }, () => instanceOf(root, merged.items ?? {}, depth + 1));
    }
    case "string":
      return "x".repeat(merged.minLength ?? 0);
    case "integer":
    case "number":
      return merged.minimum ?? 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return {};
  }
}

/** `over` laid over `base`: objects merged key by key, anything else replaced. */
export function deepMerge(base, over) {
  if (
    typeof base !== "object" ||
    base === null ||
    Array.isArray(base) ||
    typeof over !== "object" ||
    over === null ||
    Array.isArray(over)
  )
    return over;
  const merged = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = deepMerge(base[key], value);
  return merged;
}
