// Test helper (not exported): normalized Step objects as the registry loader produces them.
import type {
  CheckDefinition,
  FlowStepKind,
  Step,
  StructuredGate,
  Transitions,
} from "@climpt/model";
import { stepOf } from "@climpt/model/testing";

export function gateStep(
  id: string,
  kind: FlowStepKind,
  gate: Partial<StructuredGate> & Pick<StructuredGate, "allowedIntents">,
  transitions: Transitions = {},
): Step {
  return stepOf(id, {
    kind,
    prompt: {
      kind: "c3l",
      c1: "steps",
      c2: id.split(".")[0] ?? "initial",
      c3: "issue",
      edition: "default",
    },
    gate: {
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: [],
      failFast: true,
      ...gate,
    },
    transitions,
  });
}

export function checkStep(
  id: string,
  check: CheckDefinition | undefined,
  handoff: Step["handoff"] = [],
): Step {
  return stepOf(id, {
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: "analyze", edition: "default" },
    ...(check === undefined ? {} : { check }),
    handoff,
  });
}
