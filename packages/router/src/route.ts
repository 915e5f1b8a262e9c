import {
  fail,
  type GateIntent,
  isGateIntent,
  isIntentAllowedForKind,
  ok,
  type Problem,
  problem,
  type Registry,
  type Result,
  STEP_KIND_INTENTS,
  type Step,
  stepPath,
} from "@climpt/model";
import { advance } from "./advance.ts";
import { contractViolation, list } from "./problems.ts";
import { type ConditionSources, resolveTransition } from "./resolve-transition.ts";
import type { RouteDecision, RouteInput, RouteOptions, StepVia } from "./route-decision.ts";
import {
  hasStep,
  lookup,
  type RouterState,
  recordExecution,
  updateStepCount,
} from "./router-state.ts";

/** The registry's definition of the state's current step, or `SR-TRANS-017`. */
export function currentStep(registry: Registry, state: RouterState): Result<Step> {
  const step = lookup(registry.steps, state.stepId);
  if (step !== undefined) return ok(step);
  return fail([
    problem(
      "SR-TRANS-017",
      `The router state is at step "${state.stepId}", which the registry does not define.`,
      {
        path: stepPath(state.stepId),
        hint: "Resume a run only with the registry it started with, or add the step back to steps_registry.json.",
      },
    ),
  ]);
}

/** Step-kind boundary rules and the step's own `allowedIntents` (abort is always allowed). */
function checkIntentAllowed(step: Step, intent: GateIntent): Problem | undefined {
  if (step.kind === "section") {
    return problem(
      "SR-TRANS-012",
      `Step "${step.id}" is a section step: a prompt fragment with no flow, so it cannot route "${intent}".`,
      {
        path: stepPath(step.id),
        hint: "Route to work, verification or closure steps only; section steps are injected into other prompts.",
      },
    );
  }
  if (intent === "abort") return undefined;
  if (!isIntentAllowedForKind(step.kind, intent)) {
    const closing =
      intent === "closing"
        ? ` Only a closure step's "closing" starts the completion chain; a ${step.kind} step cannot route "closing".`
        : "";
    return problem(
      "SR-INTENT-001",
      `Intent "${intent}" is not allowed for ${step.kind} step "${step.id}": ${step.kind} steps can emit ${list(STEP_KIND_INTENTS[step.kind])}.${closing}`,
      {
        path: stepPath(step.id, "structuredGate", "allowedIntents"),
        hint:
          intent === "closing"
            ? `Hand over with "handoff" to a closure step (transitions.handoff.target: "closure.<domain>") and let that step emit "closing"; remove "closing" from this step's schema enum.`
            : `Change the step's schema enum so the model answers one of ${list(STEP_KIND_INTENTS[step.kind])}, or move this decision to a step whose stepKind allows "${intent}".`,
      },
    );
  }
  if (step.gate !== undefined && !step.gate.allowedIntents.includes(intent)) {
    return problem(
      "SR-INTENT-001",
      `Intent "${intent}" is not in structuredGate.allowedIntents ${list(step.gate.allowedIntents)} of step "${step.id}".`,
      {
        path: stepPath(step.id, "structuredGate", "allowedIntents"),
        hint: `Add "${intent}" to allowedIntents and transitions of step "${step.id}", or remove it from the step's schema enum.`,
      },
    );
  }
  return undefined;
}

/**
 * Codes for a target that is null, missing or a section step, per intent (numbered as the original
 * runtime numbers them).
 */
const TARGET_CODES: Readonly<
  Record<"next" | "repeat" | "jump" | "handoff" | "escalate", { missing: string; nulled: string }>
> = {
  next: { missing: "SR-TRANS-001", nulled: "SR-TRANS-002" },
  repeat: { missing: "SR-TRANS-001", nulled: "SR-TRANS-002" },
  jump: { missing: "SR-TRANS-010", nulled: "SR-TRANS-002" },
  handoff: { missing: "SR-TRANS-006", nulled: "SR-TRANS-005" },
  escalate: { missing: "SR-TRANS-008", nulled: "SR-TRANS-009" },
};

type MovingIntent = keyof typeof TARGET_CODES;

/** The target as a runnable step id, or the coded problem with it. */
function checkTarget(
  registry: Registry,
  step: Step,
  intent: MovingIntent,
  target: string | null,
  fromModel: boolean,
): Result<string> {
  const refused = targetProblem(registry, step, intent, target, fromModel);
  return refused === undefined && target !== null ? ok(target) : fail(refused ? [refused] : []);
}

function targetProblem(
  registry: Registry,
  step: Step,
  intent: MovingIntent,
  target: string | null,
  fromModel: boolean,
): Problem | undefined {
  // The usual case: an existing, runnable target. Messages are only built for problems.
  const kind = target === null ? undefined : lookup(registry.steps, target)?.kind;
  if (kind !== undefined && kind !== "section") return undefined;
  const path = fromModel
    ? stepPath(step.id, "structuredGate", "targetField")
    : stepPath(step.id, "transitions", intent);
  if (target === null) {
    return problem(
      TARGET_CODES[intent].nulled,
      `Step "${step.id}" has transitions.${intent}.target: null, but a null (terminal) target is only allowed for "closing" on a closure step.`,
      {
        path: path,
        hint:
          intent === "handoff"
            ? `Set transitions.handoff.target to the closure step this work hands over to, e.g. "closure.${step.id.split(".").slice(1).join(".") || "issue"}".`
            : `Set transitions.${intent}.target to an existing step id.`,
      },
    );
  }
  const where = fromModel
    ? `the model's jump target (structuredGate.targetField "${step.gate?.targetField ?? ""}")`
    : `transitions.${intent}`;
  if (!hasStep(registry, target)) {
    return problem(
      TARGET_CODES[intent].missing,
      `Step "${step.id}" emitted "${intent}" to "${target}" (${where}), which does not exist in the registry.`,
      {
        path: path,
        hint: fromModel
          ? `List the step ids the model may jump to in the step prompt and constrain "${step.gate?.targetField ?? "the target field"}" with an enum of them in the output schema.`
          : `Add step "${target}" to steps, or change transitions.${intent} to an existing step.`,
      },
    );
  }
  return problem(
    "SR-TRANS-012",
    `Step "${step.id}" emitted "${intent}" to "${target}" (${where}), which is a section step: a prompt fragment that never runs as a flow step.`,
    { path: path, hint: "Point the transition at a work, verification or closure step." },
  );
}

function missingTransition(step: Step, intent: GateIntent): Problem {
  const path = stepPath(step.id, "transitions");
  switch (intent) {
    case "handoff":
      return problem(
        "SR-TRANS-004",
        `Step "${step.id}" emitted "handoff" but has no transitions.handoff.`,
        {
          path: path,
          hint: `Add "handoff": { "target": "closure.<domain>" } to the transitions of step "${step.id}".`,
        },
      );
    case "escalate":
      return problem(
        "SR-TRANS-007",
        `Step "${step.id}" emitted "escalate" but has no transitions.escalate: escalation only goes to a statically declared support step.`,
        {
          path: path,
          hint: `Add "escalate": { "target": "<verification support step>" } to the transitions of step "${step.id}".`,
        },
      );
    case "jump":
      return problem(
        "SR-TRANS-011",
        `Step "${step.id}" emitted "jump" without a target: the interpretation carries none and the step has no transitions.jump.`,
        {
          path: stepPath(step.id, "structuredGate", "targetField"),
          hint: `Declare structuredGate.targetField (where the model writes the step id), or add "jump": { "target": "<step id>" } to the transitions.`,
        },
      );
    case "closing":
      return problem(
        "SR-TRANS-016",
        `Closure step "${step.id}" emitted "closing" but has no transitions.closing.`,
        {
          path: path,
          hint: `Add "closing": { "target": null } to the transitions of step "${step.id}".`,
        },
      );
    default: {
      const continuation = step.id.startsWith("initial.")
        ? ` and no "continuation.${step.id.slice("initial.".length)}" step to fall back to`
        : "";
      return problem(
        "SR-TRANS-003",
        `Step "${step.id}" emitted "${intent}" but has no transitions.${intent}${continuation}.`,
        {
          path: path,
          hint: `Add "${intent}": { "target": "<step id>" } to the transitions of step "${step.id}"${continuation ? `, or add step "continuation.${step.id.slice("initial.".length)}"` : ""}.`,
        },
      );
    }
  }
}

function moveTo(
  registry: Registry,
  state: RouterState,
  target: string,
  via: StepVia,
  cap: number,
  reason: string | undefined,
): Result<RouteDecision> {
  const next = advance(registry, state, target, { newVisit: false, cap });
  if (!next.ok) return next;
  return ok({
    kind: "step",
    stepId: target,
    via,
    state: next.value,
    ...(reason === undefined ? {} : { reason }),
  });
}

/**
 * Decides where the flow goes after the current step (`state.stepId`) produced `input`. Records
 * the execution, applies the step-kind boundary rules, resolves the intent's transition and
 * starts the next iteration (refused past `cap`), or returns a coded problem saying what to fix
 * in steps_registry.json. Reached through `createRouter(...).route`, which holds the cap.
 */
export function route(
  registry: Registry,
  state: RouterState,
  input: RouteInput,
  cap: number,
  options: RouteOptions = {},
): Result<RouteDecision> {
  if (state.awaitingCheck) {
    throw contractViolation(
      `route was called on step "${state.stepId}" while its check is pending.`,
      "After beforeCheck returns { kind: 'check' }, run the check and call routeCheck.",
    );
  }
  const found = currentStep(registry, state);
  if (!found.ok) return found;
  const step = found.value;
  const intent = input.intent;
  if (!isGateIntent(intent)) {
    return fail([
      problem(
        "SR-INTENT-002",
        `Step "${step.id}" was routed with ${JSON.stringify(intent)}, which is not an intent.`,
        {
          path: stepPath(step.id, "structuredGate", "intentField"),
          hint: "Interpret the output with interpretGate (it maps aliases and refuses unknown values) before routing.",
        },
      ),
    ]);
  }
  const refused = checkIntentAllowed(step, intent);
  if (refused !== undefined) return fail([refused]);

  const executed: RouterState = { ...recordExecution(state), lastIntent: intent };
  const sources: ConditionSources = {
    handoff: input.handoff,
    handoffPaths: input.handoffPaths,
    accumulated: options.handoff,
  };

  if (intent === "abort") {
    return ok({
      kind: "abort",
      code: "AGENT_ABORTED",
      stepId: step.id,
      reason: input.reason ?? `Step "${step.id}" chose abort.`,
      state: executed,
    });
  }

  if (intent === "closing") {
    const transition = step.transitions.closing;
    if (transition === undefined) return fail([missingTransition(step, intent)]);
    const resolved = resolveTransition(step, intent, transition, sources);
    if (!resolved.ok) return resolved;
    // `closing: { target: null }` or a target naming the closure step itself: both end the
    // flow and start the completion chain (docs/design.md#transitions-and-the-router).
    if (resolved.value === null || resolved.value === step.id) {
      return ok({
        kind: "closing",
        stepId: step.id,
        state: executed,
        ...(input.reason === undefined ? {} : { reason: input.reason }),
      });
    }
    return fail([
      problem(
        "SR-TRANS-015",
        `Closure step "${step.id}" emitted "closing" with a transition to "${resolved.value}": closing ends the flow and starts the completion chain, it does not move to another step.`,
        {
          path: stepPath(step.id, "transitions", "closing"),
          hint: `Set transitions.closing to { "target": null }. To run another step first, route there with "repeat" and its target.`,
        },
      ),
    ]);
  }

  if (intent === "repeat") {
    const repeated: RouterState = {
      ...executed,
      stepCounts: updateStepCount(executed.stepCounts, step.id, (count) => ({
        ...count,
        retries: count.retries + 1,
      })),
    };
    const transition = step.transitions.repeat;
    // Without a declared target, repeat stays on the step.
    if (transition === undefined) {
      return moveTo(registry, repeated, step.id, "repeat", cap, input.reason);
    }
    const resolved = resolveTransition(step, intent, transition, sources);
    if (!resolved.ok) return resolved;
    const target = checkTarget(registry, step, intent, resolved.value, false);
    if (!target.ok) return target;
    return moveTo(registry, repeated, target.value, "repeat", cap, input.reason);
  }

  if (intent === "jump" && input.target !== undefined) {
    // The model's named target wins over a declared transitions.jump.
    const target = checkTarget(registry, step, intent, input.target, true);
    if (!target.ok) return target;
    return moveTo(registry, executed, target.value, "jump", cap, input.reason);
  }

  const transition = step.transitions[intent];
  if (transition === undefined) {
    if (intent === "next" && step.id.startsWith("initial.")) {
      // docs/design.md#transitions-and-the-router: initial.X continues as continuation.X when no
      // next rule says otherwise.
      const continuation = `continuation.${step.id.slice("initial.".length)}`;
      if (hasStep(registry, continuation)) {
        return moveTo(registry, executed, continuation, "continuation", cap, input.reason);
      }
    }
    return fail([missingTransition(step, intent)]);
  }
  const resolved = resolveTransition(step, intent, transition, sources);
  if (!resolved.ok) return resolved;
  const target = checkTarget(registry, step, intent, resolved.value, false);
  if (!target.ok) return target;
  return moveTo(registry, executed, target.value, intent, cap, input.reason);
}
