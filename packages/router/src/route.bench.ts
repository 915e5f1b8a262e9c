// `pnpm --filter @climpt/router bench`: interpret + route time per transition on a 1,000-step
// chain (and, for scale, a 10-step one). vitest compiles this file, since Node 20 cannot run
// TypeScript itself. Prints p50 / p99 in µs measured per transition, then vitest's own table for
// whole-chain walks.

import { performance } from "node:perf_hooks";
import { interpretGate } from "@climpt/gate-interpreter";
import type { JsonValue, Registry, Step } from "@climpt/model";
import { bench, describe } from "vitest";
import { createRouter } from "./create-router.ts";
import { gateStep, registryOf } from "./registries.test-helper.ts";
import { started } from "./started.test-helper.ts";

/** `continuation.s0` → … → `closure.end`, every step handing off two fields. */
function chain(length: number): Registry {
  const steps: Step[] = [];
  for (let i = 0; i < length - 1; i += 1) {
    const next = i === length - 2 ? "closure.end" : `continuation.s${i + 1}`;
    steps.push(
      gateStep(`continuation.s${i}`, {
        transitions: { next: { kind: "target", target: next } },
        gate: { handoffFields: ["analysis.summary", "analysis.files[0]"] },
      }),
    );
  }
  steps.push(
    gateStep("closure.end", { transitions: { closing: { kind: "target", target: null } } }),
  );
  return registryOf("gate", steps);
}

const nextOutput: JsonValue = {
  next_action: { action: "next", reason: "step done" },
  analysis: { summary: "looked at the code", files: ["src/a.ts", "src/b.ts"] },
};
const closingOutput: JsonValue = { next_action: { action: "closing", reason: "all done" } };

/** Walks the chain once; with `samples`, records each transition's interpret + route time. */
function walk(registry: Registry, samples?: number[]): void {
  const router = createRouter(registry, { iterationCap: Object.keys(registry.steps).length });
  let state = started(router, "continuation.s0");
  const handoff: Record<string, JsonValue> = {};
  for (;;) {
    const started = samples === undefined ? 0 : performance.now();
    const step = registry.steps[state.stepId] as Step;
    const output = step.kind === "closure" ? closingOutput : nextOutput;
    const gate = interpretGate(step, output, { iteration: state.iteration });
    if (!gate.ok) throw new Error(gate.issues[0]?.message);
    const decision = router.route(state, gate.value, { handoff });
    if (!decision.ok) throw new Error(decision.issues[0]?.message);
    if (samples !== undefined) samples.push((performance.now() - started) * 1000);
    Object.assign(handoff, gate.value.handoff);
    if (decision.value.kind !== "step") return;
    state = decision.value.state;
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Per-transition percentiles, measured while vitest collects this file: vitest bench reports
 * only whole-function timings (and no p50), and does not run afterAll hooks.
 */
function reportPerTransition(registry: Registry, walks: number): void {
  for (let i = 0; i < 5; i += 1) walk(registry); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < walks; i += 1) walk(registry, samples);
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  console.log(
    `interpret + route per transition, ${Object.keys(registry.steps).length}-step chain ` +
      `(${samples.length} transitions, node ${process.version}): ` +
      `p50 ${percentile(samples, 50).toFixed(2)} µs, p99 ${percentile(samples, 99).toFixed(2)} µs, ` +
      `mean ${mean.toFixed(2)} µs`,
  );
}

const long = chain(1000);
const short = chain(10);
reportPerTransition(long, 30);
reportPerTransition(short, 3000);

describe("interpretGate + route", () => {
  bench("walk a 1,000-step chain", () => walk(long), { iterations: 20, time: 0 });
  bench("walk a 10-step chain", () => walk(short), { iterations: 2000, time: 0 });
});
