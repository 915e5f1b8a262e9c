// Test helper (not exported): normalized Step objects as the registry loader produces them.
import type {
  CheckDefinition,
  FlowStepKind,
  Step,
  StructuredGate,
  Transitions,
} from "@climpt/model";

export function gateStep(
  id: string,
  kind: FlowStepKind,
  gate: Partial<StructuredGate> & Pick<StructuredGate, "allowedIntents">,
  transitions: Transitions = {},
): Step {
  return {
    id,
    kind,
    kindSource: "declared",
    prompt: {
      kind: "c3l",
      c1: "steps",
      c2: id.split(".")[0] ?? "initial",
      c3: "issue",
      edition: "default",
    },
    uvVariables: [],
    usesStdin: false,
    gate: {
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: [],
      failFast: true,
      ...gate,
    },
    transitions,
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
  };
}

export function checkStep(
  id: string,
  check: CheckDefinition | undefined,
  handoff: Step["handoff"] = [],
): Step {
  return {
    id,
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: "analyze", edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    ...(check === undefined ? {} : { check }),
    iterations: { min: 1, max: 1 },
    handoff,
    permissions: {},
  };
}
