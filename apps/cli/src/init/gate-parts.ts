/** Pieces of gate-dialect agents that `climpt init` writes: output schemas and structured gates. */

/** A JSON Schema object as written into a step's output schema file. */
export type JsonSchemaObject = Record<string, unknown>;

/** A step's `structuredGate` as written into steps_registry.json. */
export interface StructuredGateJson {
  readonly allowedIntents: readonly string[];
  readonly intentSchemaRef: string;
  readonly intentField: string;
  readonly handoffFields: readonly string[];
  readonly failFast: boolean;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function nextAction(intents: readonly string[]): JsonSchemaObject {
  return {
    type: "object",
    additionalProperties: false,
    required: ["action", "reason"],
    properties: {
      action: { type: "string", enum: intents },
      reason: { type: "string", description: "Why this is the next move, in one sentence." },
    },
  };
}

export function stepOutput(
  stepId: string,
  body: Record<string, unknown>,
  intents: readonly string[],
): JsonSchemaObject {
  const [key, schema] = Object.entries(body)[0] as [string, unknown];
  return {
    type: "object",
    additionalProperties: false,
    required: ["stepId", "summary", key, "next_action"],
    properties: {
      stepId: { const: stepId },
      summary: { type: "string", description: "What you did in this step, in a few sentences." },
      [key]: schema,
      next_action: nextAction(intents),
    },
  };
}

export function gate(
  intents: readonly string[],
  handoffFields: readonly string[],
): StructuredGateJson {
  return {
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    handoffFields,
    failFast: true,
  };
}

/**
 * The output schema of a step whose answer has several fields of its own (a verdict and a
 * question, say), beside `stepId`, `summary` and `next_action`.
 */
export function fieldsOutput(
  stepId: string,
  fields: Record<string, unknown>,
  required: readonly string[],
  intents: readonly string[],
): JsonSchemaObject {
  return {
    type: "object",
    additionalProperties: false,
    required: ["stepId", "summary", ...required, "next_action"],
    properties: {
      stepId: { const: stepId },
      summary: { type: "string", description: "What you did in this step, in a few sentences." },
      ...fields,
      next_action: nextAction(intents),
    },
  };
}

/** A gate-dialect agent.json of the starter set: one issue parameter, tools, a log folder. */
export function starterAgentJson(options: {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly string[];
  readonly parameters?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    name: options.name,
    displayName: options.name
      .split("-")
      .map((word) => word[0]?.toUpperCase() + word.slice(1))
      .join(" "),
    description: options.description,
    version: "0.1.0",
    parameters: {
      issue: {
        type: "number",
        description: "The GitHub issue to work on (the orchestrator passes it)",
        required: true,
        cli: "--issue",
      },
      ...options.parameters,
    },
    runner: {
      flow: {
        systemPromptPath: "prompts/system.md",
        prompts: { registry: "steps_registry.json" },
        defaultModel: "sonnet",
      },
      verdict: { type: "detect:graph", config: {} },
      boundaries: { allowedTools: options.tools, permissionMode: "acceptEdits" },
      integrations: { github: { enabled: false } },
      logging: { directory: `tmp/climpt/logs/${options.name}`, format: "jsonl" },
    },
  };
}
