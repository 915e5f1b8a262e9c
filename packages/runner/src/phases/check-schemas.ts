import type { JsonSchema, Step } from "@climpt/model";

/**
 * The output schema of a check-dialect check call (`{result, message}`,
 * docs/design.md#the-check-dialect). `result` is a free string on purpose: the check interpreter
 * reads `ok|pass|true` / `ng|fail|false` and treats anything else as a failed check, which a
 * narrower enum would turn into a schema failure.
 */
export const CHECK_OUTPUT_SCHEMA: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["result", "message"],
  properties: {
    result: {
      type: "string",
      description: 'The verdict: "ok" when every condition holds, "ng" when any does not.',
    },
    message: { type: "string", description: "Why, in one or two sentences." },
  },
};

/**
 * The schema a step's model call is held to:
 * - a declared `outputSchemaRef` (resolved by the loader) is used as is;
 * - a check-dialect step without one gets a schema built from its declarations: one property per
 *   `handoff` key (docs/design.md#handoff), plus `result` / `message` when its check has a
 *   `responseFormat` but no check prompt (the step's own output carries the verdict);
 * - a check-dialect step that declares neither answers in free text (no schema).
 */
export function stepOutputSchema(step: Step): JsonSchema | undefined {
  if (step.outputSchema !== undefined) return step.outputSchema;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of step.handoff) {
    properties[field.key] = field.description
      ? { description: field.description }
      : { description: `The ${field.key} this step hands to the next.` };
    required.push(field.key);
  }
  const check = step.check;
  if (check !== undefined && check.prompt === undefined && check.responseFormat !== undefined) {
    for (const [name, format] of Object.entries(check.responseFormat)) {
      if (properties[name] !== undefined) continue;
      properties[name] =
        name === "result"
          ? { type: "string", description: `The check verdict (${format}).` }
          : { description: format };
      required.push(name);
    }
  }
  if (required.length === 0) return undefined;
  return { type: "object", required, properties };
}
