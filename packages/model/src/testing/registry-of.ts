import {
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  type Registry,
  type Step,
} from "../model.ts";

/**
 * A normalized registry for tests holding `steps` in the given order, with the loader's defaults
 * for everything else (gate dialect, `steps` as c1, the default path templates, no validators,
 * failure patterns or entry). `overrides` replace whole fields.
 */
export function registryOf(steps: readonly Step[], overrides: Partial<Registry> = {}): Registry {
  return {
    dialect: "gate",
    version: "1.0.0",
    c1: "steps",
    promptsBase: "prompts",
    schemasBase: "schemas",
    pathTemplate: DEFAULT_PATH_TEMPLATE,
    pathTemplateNoAdaptation: DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
    entryStepMapping: {},
    failurePatterns: {},
    validators: {},
    validationSteps: {},
    steps: Object.fromEntries(steps.map((step) => [step.id, step])),
    ...overrides,
  };
}
