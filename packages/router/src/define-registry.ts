import {
  DEFAULT_PATH_TEMPLATE,
  DEFAULT_PATH_TEMPLATE_NO_ADAPTATION,
  fail,
  inferStepKind,
  jsonPath,
  ok,
  type Problem,
  problem,
  type Registry,
  type Result,
  type Step,
  stepPath,
} from "@climpt/model";

/**
 * One step of `defineRegistry`: what routing and gate reading use, every other `Step` field
 * optional. The id is the key it is written under. `kind` defaults to what the id's prefix
 * implies (`closure.x` → closure, `verification.x` → verification, `section.x` → section, else
 * work), as the loader does.
 */
export type StepSpec = Partial<Omit<Step, "id">>;

/**
 * A registry for `defineRegistry`: its dialect and steps; every other `Registry` field optional
 * (the loader's defaults fill them).
 */
export interface RegistrySpec extends Partial<Omit<Registry, "steps" | "dialect">> {
  readonly dialect: Registry["dialect"];
  readonly steps: Readonly<Record<string, StepSpec>>;
}

function stepFrom(id: string, spec: StepSpec): Step {
  const [c2 = "initial", ...rest] = id.split(".");
  return {
    kind: spec.kind ?? inferStepKind(id, undefined),
    kindSource: spec.kind === undefined ? "inferred" : "declared",
    // Routing never reads the prompt; a runner that does gives its own.
    prompt: { kind: "c3l", c1: "steps", c2, c3: rest.join("-") || "issue", edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
    ...spec,
    id,
  };
}

function checkTarget(
  registry: Registry,
  from: string,
  target: string,
  path: string,
  problems: Problem[],
): void {
  const found = Object.hasOwn(registry.steps, target) ? registry.steps[target] : undefined;
  if (found === undefined) {
    problems.push(
      problem(
        "SR-TRANS-001",
        `Step "${from}" goes to "${target}", which is not a step of this registry.`,
        {
          path,
          hint: `Add step "${target}" or change the target. Steps: ${Object.keys(registry.steps).join(", ")}.`,
        },
      ),
    );
  } else if (found.kind === "section") {
    problems.push(
      problem("SR-TRANS-012", `Step "${from}" goes to "${target}", a section step.`, {
        path,
        hint: "Sections are prompt fragments and never run: route to a work, verification or closure step.",
      }),
    );
  }
}

function checkEntry(registry: Registry, problems: Problem[]): void {
  const entries: [string, string, string][] = [];
  if (registry.entryStep !== undefined) entries.push([registry.entryStep, "$.entryStep", "002"]);
  for (const [type, id] of Object.entries(registry.entryStepMapping)) {
    entries.push([id, jsonPath("$.entryStepMapping", type), "003"]);
  }
  for (const [id, path, number] of entries) {
    if (Object.hasOwn(registry.steps, id)) continue;
    problems.push(
      problem(`SR-ENTRY-${number}`, `Entry step "${id}" is not a step of this registry.`, {
        path,
        hint: `Name an existing step: ${Object.keys(registry.steps).join(", ")}.`,
      }),
    );
  }
}

/**
 * A registry built in code or from plain JSON, without the loader (`@climpt/registry-schema`
 * and its validation library): fills every field routing does not read with the loader's
 * defaults and checks what a run would otherwise find only when it takes the wrong turn: every
 * transition target, `onPass.next` and `onFail.fallback` names a step that is not a section
 * (`SR-TRANS-001`, `SR-TRANS-012`), the entry step and every `entryStepMapping` value exist
 * (`SR-ENTRY-002`, `SR-ENTRY-003`). All problems at once, each with its JSON path. It does not
 * replace `climpt validate`: prompts, schemas and flow analysis need the agent folder.
 */
export function defineRegistry(spec: RegistrySpec): Result<Registry> {
  const { steps, ...fields } = spec;
  const registry: Registry = {
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
    ...fields,
    steps: Object.fromEntries(Object.entries(steps).map(([id, step]) => [id, stepFrom(id, step)])),
  };
  const problems: Problem[] = [];
  checkEntry(registry, problems);
  for (const step of Object.values(registry.steps)) {
    for (const [intent, transition] of Object.entries(step.transitions)) {
      const at = stepPath(step.id, "transitions", intent);
      if (transition.kind === "conditional") {
        for (const [value, target] of Object.entries(transition.targets)) {
          checkTarget(registry, step.id, target, jsonPath(`${at}.targets`, value), problems);
        }
      } else if (transition.target !== null) {
        checkTarget(registry, step.id, transition.target, `${at}.target`, problems);
      }
    }
    const check = step.check;
    if (check?.onPass.kind === "next") {
      const at = stepPath(step.id, "check", "onPass", "next");
      checkTarget(registry, step.id, check.onPass.target, at, problems);
    }
    if (check?.onFail?.kind === "fallback") {
      const at = stepPath(step.id, "check", "onFail", "fallback");
      checkTarget(registry, step.id, check.onFail.target, at, problems);
    }
  }
  return problems.length === 0 ? ok(registry) : fail(problems);
}
