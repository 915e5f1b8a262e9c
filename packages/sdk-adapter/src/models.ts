/**
 * Model aliases: the one table that maps `opus` / `sonnet` / `haiku` to current model ids.
 * Chosen from the `Model` union and CHANGELOG of @anthropic-ai/sdk 1.12.0 (2026-11-20): the newest
 * id of each family. Update this table, and only this table, when a family gets a new model.
 */
export const MODEL_ALIASES = {
  opus: "claude-opus-5-5",
  sonnet: "claude-sonnet-5-5",
  haiku: "claude-haiku-5-5",
} as const;
// Frozen in place rather than through `Object.freeze({…})` as the initializer: a call's result
// type cannot be read without a type checker, and the published declarations are written without one
// (isolated declarations, tsdown.shared.ts).
Object.freeze(MODEL_ALIASES);

export type ModelAlias = keyof typeof MODEL_ALIASES;

/**
 * A step without a model and an agent without a default run on `opus`
 * (docs/design.md#steps-and-kinds).
 */
export const DEFAULT_MODEL_ALIAS: ModelAlias = "opus";

export function isModelAlias(value: string): value is ModelAlias {
  return Object.hasOwn(MODEL_ALIASES, value);
}

/** An alias (any case, surrounding spaces ignored) becomes its id; anything else passes through. */
export function modelId(model: string): string {
  const key = model.trim().toLowerCase();
  return isModelAlias(key) ? MODEL_ALIASES[key] : model.trim();
}

/**
 * The model a step runs on: `step.model` > the agent's default model > `opus`
 * (docs/design.md#steps-and-kinds), as a full model id. Empty strings count as absent.
 */
export function resolveModel(stepModel?: string, agentDefaultModel?: string): string {
  for (const candidate of [stepModel, agentDefaultModel]) {
    if (candidate !== undefined && candidate.trim() !== "") return modelId(candidate);
  }
  return MODEL_ALIASES[DEFAULT_MODEL_ALIAS];
}
