import { inferStepKind } from "../intents.ts";
import type { Step } from "../model.ts";

/**
 * A normalized step for tests, as the loader would produce it for a step that declares nothing
 * but its id: the kind the id prefix implies (`inferStepKind`), a C3L prompt
 * `steps/<first id part>/<the rest, joined by ->` (`issue` for a one-part id), one iteration, no
 * transitions, no handoff, no permissions. `overrides` replace whole fields; an explicit `kind`
 * counts as declared.
 */
export function stepOf(id: string, overrides: Partial<Step> = {}): Step {
  const [c2 = "initial", ...rest] = id.split(".");
  return {
    id,
    kind: inferStepKind(id, undefined),
    kindSource: overrides.kind === undefined ? "inferred" : "declared",
    prompt: { kind: "c3l", c1: "steps", c2, c3: rest.join("-") || "issue", edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
    ...overrides,
  };
}
