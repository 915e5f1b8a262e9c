/**
 * The JSON Schema documents shipped as `agent.schema.json` and `steps_registry.schema.json`
 * (point `$schema` at them for editor completion), generated from the valibot schemas so the
 * loader and the editor never disagree. `pnpm --filter @climpt/registry-schema generate` writes
 * the files; a test fails when the committed files drift from these functions.
 */
import type { JsonSchema } from "@climpt/model";
import { type ConversionConfig, toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import {
  agentFileSchema,
  boundaryHookSchema,
  githubSchema,
  limitsSchema,
  loggingSchema,
  parameterSchema,
  promptsSchema,
  worktreeSchema,
} from "./agent-file-schema.ts";
import {
  checkStepSchema,
  failurePatternSchema,
  gateStepSchema,
  outputSchemaRefSchema,
  promptRefSchema,
  registryFileSchema,
  structuredGateSchema,
  transitionSchema,
  validationStepSchema,
  validatorSchema,
} from "./registry-file-schema.ts";

const conversion: ConversionConfig = {
  target: "draft-07",
  errorMode: "throw",
  // `jsonValueSchema` is a custom check (any JSON value): in a JSON file that is every value.
  overrideSchema: ({ valibotSchema }) => (valibotSchema.type === "custom" ? {} : undefined),
};

function generate(
  schema: v.GenericSchema,
  definitions: Record<string, v.GenericSchema>,
  title: string,
  description: string,
): JsonSchema {
  // Parts several places share are written once, under `definitions`, and referenced.
  const generated = toJsonSchema(schema, { ...conversion, definitions }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return JSON.parse(JSON.stringify({ $schema, title, description, ...rest })) as JsonSchema;
}

/** JSON Schema of agent.json (both shapes). `climpt schema agent` prints it. */
export function agentJsonSchema(): JsonSchema {
  return generate(
    agentFileSchema,
    {
      parameter: parameterSchema,
      limits: limitsSchema,
      boundaryHook: boundaryHookSchema,
      github: githubSchema,
      worktree: worktreeSchema,
      logging: loggingSchema,
      prompts: promptsSchema,
    },
    "climpt agent.json",
    "An agent definition: the nested runner.* shape, or the flat behavior/prompts/logging shape.",
  );
}

/** JSON Schema of steps_registry.json (both dialects). `climpt schema registry` prints it. */
export function registryJsonSchema(): JsonSchema {
  return generate(
    registryFileSchema,
    {
      gateStep: gateStepSchema,
      checkStep: checkStepSchema,
      structuredGate: structuredGateSchema,
      transition: transitionSchema,
      promptRef: promptRefSchema,
      outputSchemaRef: outputSchemaRefSchema,
      validator: validatorSchema,
      failurePattern: failurePatternSchema,
      validationStep: validationStepSchema,
    },
    "climpt steps_registry.json",
    "A step registry: the gate dialect (stepId, c2/c3, structuredGate, transitions) or the check dialect (s_<hex> ids, prompt, iterations, check).",
  );
}
