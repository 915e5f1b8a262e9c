// Property tests: on random well-formed registries (every allowed intent has an existing target,
// at least one closure step) and random model answers, the router never names a step that does
// not exist, never passes the iteration cap, and its state survives a JSON round trip unchanged.

import type {
  CheckOnFail,
  CheckOnPass,
  GateIntent,
  Registry,
  Step,
  Transition,
} from "@climpt/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRouter } from "./create-router.ts";
import { checkStep, gateStep, registryOf } from "./registries.test-helper.ts";
import type { RouteInput } from "./route-decision.ts";
import type { RouterState } from "./router-state.ts";
import { started, startState } from "./started.test-helper.ts";

const KIND_INTENTS = {
  work: ["next", "repeat", "jump", "handoff"],
  verification: ["next", "repeat", "jump", "escalate"],
  closure: ["closing", "repeat"],
} as const satisfies Record<string, readonly GateIntent[]>;

type FlowKind = keyof typeof KIND_INTENTS;

const stepSeed = fc.record({
  mask: fc.integer({ min: 1, max: 15 }),
  picks: fc.array(fc.nat({ max: 1000 }), { minLength: 24, maxLength: 24 }),
});

const gateRegistrySpec = fc.record({
  pairs: fc.integer({ min: 1, max: 3 }),
  verifications: fc.integer({ min: 0, max: 2 }),
  closures: fc.integer({ min: 1, max: 2 }),
  section: fc.boolean(),
  seeds: fc.array(stepSeed, { minLength: 12, maxLength: 12 }),
});

type GateRegistrySpec = typeof gateRegistrySpec extends fc.Arbitrary<infer T> ? T : never;

/** Builds a registry static analysis would accept: every transition names an existing flow step. */
function buildGateRegistry(spec: GateRegistrySpec): { registry: Registry; flowIds: string[] } {
  const planned: { id: string; kind: FlowKind }[] = [];
  for (let i = 0; i < spec.pairs; i += 1) {
    planned.push({ id: `initial.w${i}`, kind: "work" }, { id: `continuation.w${i}`, kind: "work" });
  }
  for (let i = 0; i < spec.verifications; i += 1) {
    planned.push({ id: `verification.v${i}`, kind: "verification" });
  }
  for (let i = 0; i < spec.closures; i += 1) planned.push({ id: `closure.c${i}`, kind: "closure" });
  const flowIds = planned.map((p) => p.id);
  const pickStep = (n: number) => flowIds[n % flowIds.length] as string;

  const steps: Step[] = planned.map(({ id, kind }, index) => {
    const seed = spec.seeds[index % spec.seeds.length] ?? { mask: 1, picks: [] };
    const pick = (k: number) => seed.picks[k] ?? 0;
    const candidates = KIND_INTENTS[kind];
    let allowed = candidates.filter((_, bit) => (seed.mask >> bit) & 1);
    if (allowed.length === 0) allowed = [candidates[0]];
    const transitions: Partial<Record<GateIntent, Transition>> = {};
    allowed.forEach((intent, j) => {
      const style = pick(3 * j) % 3;
      const target = pickStep(pick(3 * j + 1));
      const other = pickStep(pick(3 * j + 2));
      if (intent === "closing") {
        transitions.closing = { kind: "target", target: style === 0 ? id : null };
        return;
      }
      const hasContinuation =
        id.startsWith("initial.") && flowIds.includes(`continuation.${id.slice(8)}`);
      const mayOmit =
        intent === "repeat" || intent === "jump" || (intent === "next" && hasContinuation);
      if (style === 2 && mayOmit) return;
      transitions[intent] =
        style === 1
          ? {
              kind: "conditional",
              condition: "k",
              targets: { a: target, b: other, default: pickStep(pick(3 * j + 1) + 1) },
            }
          : { kind: "target", target };
    });
    return gateStep(id, { kind, allowedIntents: allowed, transitions });
  });
  if (spec.section) steps.push(gateStep("section.ctx"));
  return { registry: registryOf("gate", steps), flowIds };
}

const move = fc.record({
  pick: fc.nat({ max: 1000 }),
  target: fc.nat({ max: 1000 }),
  condition: fc.constantFrom<RouteInput["handoff"]>(
    { k: "a" },
    { k: "b" },
    { k: "zzz" },
    { k: true },
    { k: 7 },
    {},
    undefined,
  ),
  validationPasses: fc.boolean(),
  maxAttempts: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  garbage: fc.nat({ max: 9 }),
});

function executed(state: RouterState): number {
  return state.stepCounts.reduce((sum, count) => sum + count.executions, 0);
}

function expectSound(registry: Registry, state: RouterState, cap: number): void {
  expect(Object.hasOwn(registry.steps, state.stepId)).toBe(true);
  expect(registry.steps[state.stepId]?.kind).not.toBe("section");
  expect(state.iteration).toBeGreaterThanOrEqual(1);
  expect(state.iteration).toBeLessThanOrEqual(cap);
  expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
  for (const leadIn of Object.values(state.closureLeadIn)) {
    expect(Object.hasOwn(registry.steps, leadIn)).toBe(true);
  }
}

/** Drives one run; `misbehave` lets the model answer intents and targets the step does not allow. */
function drive(
  registry: Registry,
  flowIds: readonly string[],
  moves: readonly MoveValue[],
  cap: number,
  misbehave: boolean,
): void {
  const entry = flowIds[0] as string;
  let state = startState(registry, entry);
  expectSound(registry, state, cap);
  for (const m of moves) {
    const step = registry.steps[state.stepId] as Step;
    const allowed = [...(step.gate?.allowedIntents ?? []), "abort" as const];
    let intent: GateIntent;
    let target: string | undefined;
    if (misbehave && m.garbage === 0) {
      intent = (["next", "repeat", "jump", "handoff", "closing", "escalate"] as const)[
        m.pick % 6
      ] as GateIntent;
      target = ["nope", "section.ctx", "constructor", flowIds[m.target % flowIds.length]][
        m.target % 4
      ];
    } else {
      // abort only now and then, so runs get long enough to meet the cap.
      intent = (m.pick % 25 === 0 ? "abort" : allowed[m.pick % (allowed.length - 1)]) as GateIntent;
      if (intent === "jump" && (step.transitions.jump === undefined || m.target % 2 === 0)) {
        target = flowIds[m.target % flowIds.length];
      }
    }
    const input: RouteInput = {
      intent,
      ...(target === undefined ? {} : { target }),
      ...(m.condition === undefined ? {} : { handoff: m.condition }),
    };
    const decided = createRouter(registry, { iterationCap: cap }).route(state, input);
    if (!decided.ok) {
      const codes = decided.issues.map((issue) => issue.code);
      if (misbehave) {
        expect(
          codes.every((c) => /^(SR-INTENT-001|SR-TRANS-0\d\d|AGENT_MAX_ITERATIONS)$/.test(c)),
        ).toBe(true);
      } else {
        // A well-formed registry answered within its allowed intents only ever hits the cap.
        expect(codes).toEqual(["AGENT_MAX_ITERATIONS"]);
        expect(state.iteration).toBe(cap);
      }
      return;
    }
    const decision = decided.value;
    state = decision.state;
    expectSound(registry, state, cap);
    if (decision.kind === "step") {
      expect(decision.stepId).toBe(state.stepId);
      expect(executed(state)).toBe(state.iteration - 1);
      continue;
    }
    expect(executed(state)).toBe(state.iteration);
    if (decision.kind === "abort") {
      expect(decision.code).toBe("AGENT_ABORTED");
      return;
    }
    expect(decision.kind).toBe("closing");
    expect(registry.steps[decision.stepId]?.kind).toBe("closure");
    if (m.validationPasses) return;
    // This move's maxAttempts, as the closure step's validationSteps entry declares it.
    const validated: Registry = {
      ...registry,
      validationSteps:
        m.maxAttempts === undefined
          ? {}
          : {
              [decision.stepId]: {
                id: decision.stepId,
                stepId: decision.stepId,
                conditions: [],
                onFailure: { action: "retry", maxAttempts: m.maxAttempts },
              },
            },
    };
    const back = createRouter(validated, { iterationCap: cap }).returnAfterFailedValidation(
      state,
      decision.stepId,
    );
    if (!back.ok) {
      expect(["AGENT_VALIDATION_ABORT", "AGENT_MAX_ITERATIONS"]).toContain(back.issues[0]?.code);
      return;
    }
    state = back.value.state;
    expectSound(registry, state, cap);
    expect(executed(state)).toBe(state.iteration - 1);
  }
}

type MoveValue = typeof move extends fc.Arbitrary<infer T> ? T : never;

describe("router properties (gate dialect)", () => {
  it("well-formed registries and allowed intents: existing steps, within the cap, JSON-stable", () => {
    fc.assert(
      fc.property(
        gateRegistrySpec,
        fc.array(move, { maxLength: 150 }),
        fc.integer({ min: 1, max: 60 }),
        (spec, moves, cap) => {
          const { registry, flowIds } = buildGateRegistry(spec);
          drive(registry, flowIds, moves, cap, false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("misbehaving models get coded problems, never an invalid state", () => {
    fc.assert(
      fc.property(
        gateRegistrySpec,
        fc.array(move, { maxLength: 80 }),
        fc.integer({ min: 1, max: 40 }),
        (spec, moves, cap) => {
          const { registry, flowIds } = buildGateRegistry(spec);
          drive(registry, flowIds, moves, cap, true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

const checkRegistrySpec = fc.array(
  fc.record({
    min: fc.integer({ min: 1, max: 3 }),
    extra: fc.integer({ min: 0, max: 3 }),
    onPass: fc.oneof(fc.constant(-1), fc.nat({ max: 10 })),
    onFail: fc.oneof(
      fc.constant<{ kind: "none" }>({ kind: "none" }),
      fc.record({
        kind: fc.constant("retry" as const),
        maxRetries: fc.integer({ min: 0, max: 3 }),
      }),
      fc.record({ kind: fc.constant("fallback" as const), to: fc.nat({ max: 10 }) }),
    ),
  }),
  { minLength: 1, maxLength: 5 },
);

describe("router properties (check dialect)", () => {
  it("checks only after iterations.min, never passes the cap, stays on existing steps", () => {
    fc.assert(
      fc.property(
        checkRegistrySpec,
        fc.array(fc.boolean(), { maxLength: 150 }),
        fc.integer({ min: 1, max: 60 }),
        (specs, verdicts, cap) => {
          const ids = specs.map((_, i) => `s_${(0xa0 + i).toString(16)}`);
          const steps = specs.map((spec, i) => {
            const onPass: CheckOnPass =
              spec.onPass < 0
                ? { kind: "complete" }
                : { kind: "next", target: ids[spec.onPass % ids.length] as string };
            const onFail: CheckOnFail | undefined =
              spec.onFail.kind === "none"
                ? undefined
                : spec.onFail.kind === "retry"
                  ? { kind: "retry", maxRetries: spec.onFail.maxRetries }
                  : { kind: "fallback", target: ids[spec.onFail.to % ids.length] as string };
            return checkStep(ids[i] as string, {
              min: spec.min,
              max: spec.min + spec.extra,
              check: { onPass, ...(onFail === undefined ? {} : { onFail }) },
            });
          });
          const registry = registryOf("check", steps);
          const router = createRouter(registry, { iterationCap: cap });
          let state = started(router, ids[0] as string);
          for (const passed of verdicts) {
            const before = router.beforeCheck(state);
            if (!before.ok) {
              // The run cap, or a step's own iterations.max over the run (SR-ITER-001).
              expect(before.issues[0]?.family ?? before.issues[0]?.code).toBe(
                "AGENT_MAX_ITERATIONS",
              );
              return;
            }
            state = before.value.state;
            expectSound(registry, state, cap);
            const step = registry.steps[state.stepId] as Step;
            if (before.value.kind === "step") {
              expect(state.visitExecutions).toBeLessThan(step.iterations.min);
              continue;
            }
            expect(state.visitExecutions).toBeGreaterThanOrEqual(step.iterations.min);
            const routed = router.routeCheck(state, { passed });
            if (!routed.ok) {
              expect(["AGENT_MAX_ITERATIONS", "AGENT_VALIDATION_ABORT", "SR-ITER-001"]).toContain(
                routed.issues[0]?.code,
              );
              return;
            }
            state = routed.value.state;
            expectSound(registry, state, cap);
            if (routed.value.kind === "complete") {
              expect(passed).toBe(true);
              return;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
