// Type tests (vitest typecheck): the field values of the model are closed unions. A new intent,
// step kind, verdict type or transition shape must update these, and with them every `switch`
// that the compiler checks for exhaustiveness.
import { describe, expectTypeOf, it } from "vitest";
import type {
  FLOW_STEP_KINDS,
  FlowStepKind,
  GATE_INTENTS,
  GateIntent,
  INTENT_ALIASES,
  STEP_KIND_INTENTS,
  StepKind,
} from "./intents.ts";
import type {
  CheckOnFail,
  CheckOnPass,
  ClosureAction,
  ParameterType,
  PermissionMode,
  PromptRef,
  RegistryDialect,
  Step,
  Transition,
  Transitions,
  VerdictSpec,
} from "./model.ts";
import type { SuccessCondition } from "./validation-model.ts";
import type { VerdictType } from "./verdict-types.ts";

describe("intents", () => {
  it("are the seven of the runtime, and nothing else", () => {
    expectTypeOf<GateIntent>().toEqualTypeOf<
      "next" | "repeat" | "jump" | "handoff" | "closing" | "escalate" | "abort"
    >();
    expectTypeOf<(typeof GATE_INTENTS)[number]>().toEqualTypeOf<GateIntent>();
  });

  it("aliases map to intents, and transitions are keyed by intents only", () => {
    expectTypeOf<(typeof INTENT_ALIASES)[string]>().toEqualTypeOf<GateIntent>();
    expectTypeOf<keyof Transitions>().toEqualTypeOf<GateIntent>();
    expectTypeOf<Transitions>().not.toHaveProperty("done");
  });
});

describe("step kinds", () => {
  it("are work, verification and closure in the flow, plus section", () => {
    expectTypeOf<FlowStepKind>().toEqualTypeOf<"work" | "verification" | "closure">();
    expectTypeOf<(typeof FLOW_STEP_KINDS)[number]>().toEqualTypeOf<FlowStepKind>();
    expectTypeOf<StepKind>().toEqualTypeOf<FlowStepKind | "section">();
    expectTypeOf<Step["kind"]>().toEqualTypeOf<StepKind>();
    expectTypeOf<Step["kindSource"]>().toEqualTypeOf<"declared" | "inferred">();
  });

  it("have an intent table for every flow kind and none for section", () => {
    expectTypeOf<keyof typeof STEP_KIND_INTENTS>().toEqualTypeOf<FlowStepKind>();
    expectTypeOf<(typeof STEP_KIND_INTENTS)["closure"]>().toEqualTypeOf<readonly GateIntent[]>();
  });
});

describe("other field values", () => {
  it("verdict types are the eight canonical names", () => {
    expectTypeOf<VerdictType>().toEqualTypeOf<
      | "detect:graph"
      | "poll:state"
      | "count:iteration"
      | "detect:keyword"
      | "detect:structured"
      | "count:check"
      | "meta:composite"
      | "meta:custom"
    >();
    expectTypeOf<VerdictSpec["type"]>().toEqualTypeOf<VerdictType>();
    expectTypeOf<VerdictSpec["declaredType"]>().toEqualTypeOf<string>();
  });

  it("transitions, checks and prompts narrow on kind", () => {
    expectTypeOf<Transition["kind"]>().toEqualTypeOf<"target" | "conditional">();
    expectTypeOf<CheckOnPass["kind"]>().toEqualTypeOf<"next" | "complete">();
    expectTypeOf<CheckOnFail["kind"]>().toEqualTypeOf<"retry" | "fallback">();
    expectTypeOf<PromptRef["kind"]>().toEqualTypeOf<"c3l" | "path">();
    expectTypeOf<SuccessCondition["kind"]>().toEqualTypeOf<
      "empty" | "exitCode" | "contains" | "matches"
    >();
    const target = (transition: Transition) => {
      if (transition.kind === "target")
        expectTypeOf(transition.target).toEqualTypeOf<string | null>();
    };
    expectTypeOf(target).toBeFunction();
  });

  it("dialects, permission modes, parameter types and closure actions are closed", () => {
    expectTypeOf<RegistryDialect>().toEqualTypeOf<"check" | "gate">();
    expectTypeOf<PermissionMode>().toEqualTypeOf<
      "default" | "plan" | "acceptEdits" | "bypassPermissions"
    >();
    expectTypeOf<ParameterType>().toEqualTypeOf<"string" | "number" | "boolean">();
    expectTypeOf<ClosureAction>().toEqualTypeOf<"close" | "label-only" | "label-and-close">();
  });
});
