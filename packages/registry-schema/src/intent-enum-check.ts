import {
  canonicalIntent,
  isPlainObject,
  type JsonSchema,
  type JsonValue,
  type Problem,
  type Step,
  stepPath,
} from "@climpt/model";
import { fragmentToPointer, parseJsonPointer, resolveJsonPointer } from "./json-pointer.ts";

/**
 * The send/receive contract of a gated step: the enum at `intentSchemaRef` inside the step's
 * resolved output schema (what the model may send) and the step's `allowedIntents` (what the gate
 * accepts) must agree. An enum value may be an allowed intent or an alias of one; each allowed
 * intent must appear, itself or as an alias. Drift either way is a routing failure waiting to
 * happen.
 */
export function checkIntentEnum(
  step: Step,
  schema: JsonSchema,
  where: { readonly registryFile?: string; readonly schemaFile?: string },
): Problem[] {
  const gate = step.gate;
  if (gate === undefined || !gate.intentSchemaRef.startsWith("#/")) return [];
  const at = stepPath(step.id, "structuredGate");
  const file = where.registryFile === undefined ? {} : { file: where.registryFile };
  const schemaName = where.schemaFile ?? "the step's schema file";
  const pointer = fragmentToPointer(gate.intentSchemaRef.slice(1));
  const segments = pointer === undefined ? undefined : parseJsonPointer(pointer);
  const node = segments === undefined ? undefined : resolveJsonPointer(schema, segments);
  const values = intentValues(node);
  if (values === undefined) {
    return [
      {
        code: "SR-INTENT-004",
        severity: "error",
        message:
          node === undefined
            ? `intentSchemaRef "${gate.intentSchemaRef}" of step "${step.id}" leads nowhere in its output schema.`
            : `intentSchemaRef "${gate.intentSchemaRef}" of step "${step.id}" leads to a schema without an enum of intents.`,
        ...file,
        path: `${at}.intentSchemaRef`,
        hint: `Point intentSchemaRef at the intent property of the step's schema (after $refs are inlined), and give it "enum": ${JSON.stringify(gate.allowedIntents)} in ${schemaName}.`,
      },
    ];
  }
  // A value is covered when it is an allowed intent or an alias of one: the gate maps aliases
  // (`wait` → repeat) before it checks allowedIntents (docs/design.md#intents).
  const allowed = new Set<string>(gate.allowedIntents);
  const stands = (value: string) => canonicalIntent(value);
  const extra = values.filter((value) => {
    const intent = stands(value);
    return intent === undefined || !allowed.has(intent);
  });
  const covered = new Set(values.map(stands));
  const missing = gate.allowedIntents.filter((intent) => !covered.has(intent));
  if (extra.length === 0 && missing.length === 0) return [];
  const describe = (value: string) => {
    const intent = stands(value);
    return intent === undefined || intent === value ? value : `${value} (an alias of ${intent})`;
  };
  const parts = [
    ...(missing.length === 0
      ? []
      : [`allowedIntents has ${missing.join(", ")}, which the schema enum lacks`]),
    ...(extra.length === 0
      ? []
      : [`the schema enum has ${extra.map(describe).join(", ")}, which allowedIntents lacks`]),
  ];
  return [
    {
      code: "SR-INTENT-005",
      severity: "error",
      message: `Step "${step.id}": the intent enum at ${gate.intentSchemaRef} is [${values.join(", ")}] but allowedIntents is [${gate.allowedIntents.join(", ")}]: ${parts.join("; ")}.`,
      ...file,
      path: `${at}.allowedIntents`,
      hint: `Make the two lists agree: every enum value an allowed intent or an alias of one (${schemaName}), every allowed intent in the enum (directly or as an alias).`,
    },
  ];
}

function intentValues(node: JsonValue | undefined): string[] | undefined {
  if (!isPlainObject(node)) return undefined;
  if (Array.isArray(node.enum)) return node.enum.map((value) => String(value));
  if (node.const !== undefined) return [String(node.const)];
  return undefined;
}
