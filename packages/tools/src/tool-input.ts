import type { JsonSchema, JsonValue } from "@climpt/model";

/**
 * A tool's input, declared once: the JSON Schema the model sees and the check its calls go
 * through are made from the same fields, so they cannot drift apart.
 */
export interface FieldSpec {
  readonly type: "string" | "integer" | "boolean" | "string[]";
  readonly description: string;
  readonly required?: boolean;
  /** Strings: must not be empty. */
  readonly nonEmpty?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
}

type ValueOf<S extends FieldSpec> = S["type"] extends "string"
  ? string
  : S["type"] extends "integer"
    ? number
    : S["type"] extends "boolean"
      ? boolean
      : string[];

type RequiredKeys<F extends Record<string, FieldSpec>> = {
  [K in keyof F]: F[K]["required"] extends true ? K : never;
}[keyof F];

export type ParsedInput<F extends Record<string, FieldSpec>> = {
  [K in RequiredKeys<F>]: ValueOf<F[K]>;
} & {
  [K in Exclude<keyof F, RequiredKeys<F>>]?: ValueOf<F[K]>;
};

export interface ToolInput<F extends Record<string, FieldSpec>> {
  readonly schema: JsonSchema;
  parse(
    input: JsonValue,
  ): { ok: true; value: ParsedInput<F> } | { ok: false; problems: readonly string[] };
}

export function defineInput<const F extends Record<string, FieldSpec>>(fields: F): ToolInput<F> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    properties[name] = fieldSchema(spec);
    if (spec.required) required.push(name);
  }
  const schema: JsonSchema = {
    type: "object",
    properties,
    required,
    additionalProperties: false,
  };

  return {
    schema,
    parse(input) {
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        return { ok: false, problems: ["the input must be a JSON object."] };
      }
      const problems: string[] = [];
      const value: Record<string, JsonValue> = {};
      for (const key of Object.keys(input)) {
        if (!(key in fields)) {
          problems.push(
            `unknown parameter "${key}"; the parameters are ${Object.keys(fields).join(", ")}.`,
          );
        }
      }
      for (const [name, spec] of Object.entries(fields)) {
        const raw = input[name];
        if (raw === undefined || raw === null) {
          if (spec.required) problems.push(`"${name}" is required.`);
          continue;
        }
        const problem = checkField(name, spec, raw);
        if (problem) problems.push(problem);
        else value[name] = raw;
      }
      return problems.length > 0
        ? { ok: false, problems }
        : { ok: true, value: value as unknown as ParsedInput<F> };
    },
  };
}

function fieldSchema(spec: FieldSpec): JsonSchema {
  const base: JsonSchema = { description: spec.description };
  switch (spec.type) {
    case "string":
      return {
        type: "string",
        ...(spec.nonEmpty ? { minLength: 1 } : {}),
        ...(spec.enum ? { enum: [...spec.enum] } : {}),
        ...base,
      };
    case "integer":
      return {
        type: "integer",
        ...(spec.minimum === undefined ? {} : { minimum: spec.minimum }),
        ...(spec.maximum === undefined ? {} : { maximum: spec.maximum }),
        ...base,
      };
    case "boolean":
      return { type: "boolean", ...base };
    case "string[]":
      return { type: "array", items: { type: "string", minLength: 1 }, ...base };
  }
}

function checkField(name: string, spec: FieldSpec, raw: JsonValue): string | undefined {
  switch (spec.type) {
    case "string":
      if (typeof raw !== "string") return `"${name}" must be a string.`;
      if (spec.nonEmpty && raw === "") return `"${name}" must not be empty.`;
      if (spec.enum && !spec.enum.includes(raw)) {
        return `"${name}" must be one of ${spec.enum.join(", ")}.`;
      }
      return undefined;
    case "integer":
      if (typeof raw !== "number" || !Number.isInteger(raw)) {
        return `"${name}" must be a whole number.`;
      }
      if (spec.minimum !== undefined && raw < spec.minimum) {
        return `"${name}" must be at least ${spec.minimum}.`;
      }
      if (spec.maximum !== undefined && raw > spec.maximum) {
        return `"${name}" must be at most ${spec.maximum}.`;
      }
      return undefined;
    case "boolean":
      return typeof raw === "boolean" ? undefined : `"${name}" must be true or false.`;
    case "string[]":
      return Array.isArray(raw) && raw.every((item) => typeof item === "string" && item !== "")
        ? undefined
        : `"${name}" must be an array of non-empty strings.`;
  }
}
