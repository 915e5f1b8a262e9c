/**
 * The third kind of user climpt is for: a team that writes its own runner on the published
 * `@climpt/router` and `@climpt/gate-interpreter`. A small strict TypeScript project whose
 * runner walks a three-step flow on scripted model outputs, routes each with the router, and
 * stops at the closure; plus one misuse the declarations must refuse.
 */

/** The project's tsconfig: strict as a careful team sets it, emitting ES modules to out/. */
export const OWN_RUNNER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    // The declarations name AbortSignal, which a Node project gets from @types/node; this project
    // installs nothing but our packages, so the DOM library stands in for it.
    lib: ["es2022", "dom"],
    types: [],
    outDir: "out",
  },
  files: ["runner.ts"],
};

/** runner.ts: prints `{"path": [...], "outcome": "...", "refused": "..."}`. */
export const OWN_RUNNER_SOURCE = `
import { interpretGate } from "@climpt/gate-interpreter";
import { formatProblem, type StructuredGate } from "@climpt/model";
import { createRouter, defineRegistry, type RegistrySpec, type RouterState } from "@climpt/router";

const gate = (allowedIntents: StructuredGate["allowedIntents"]): StructuredGate => ({
  allowedIntents,
  intentSchemaRef: "#/properties/action",
  intentField: "action",
  handoffFields: ["plan"],
  failFast: true,
});

const spec = (closureTarget: string): RegistrySpec => ({
  dialect: "gate",
  entryStep: "initial.plan",
  steps: {
    "initial.plan": {
      gate: gate(["next"]),
      transitions: { next: { kind: "target", target: "continuation.work" } },
    },
    "continuation.work": {
      gate: gate(["repeat", "handoff"]),
      transitions: {
        repeat: { kind: "target", target: "continuation.work" },
        handoff: { kind: "target", target: closureTarget },
      },
    },
    "closure.done": {
      gate: gate(["closing"]),
      transitions: { closing: { kind: "target", target: null } },
    },
  },
});

/** The model, scripted: what each call of each step answers. */
const script: Record<string, unknown[]> = {
  "initial.plan": [{ action: "next", plan: "edit one file" }],
  "continuation.work": [{ action: "repeat" }, { action: "handoff" }],
  "closure.done": [{ action: "closing" }],
};

function run(): { path: string[]; outcome: string } {
  const built = defineRegistry(spec("closure.done"));
  if (!built.ok) throw new Error(built.issues.map(formatProblem).join("; "));
  const registry = built.value;
  const router = createRouter(registry, { iterationCap: 10 });
  const started = router.start("initial.plan");
  if (!started.ok) throw new Error(started.issues.map(formatProblem).join("; "));
  let state: RouterState = started.value;
  const path: string[] = [];
  for (;;) {
    path.push(state.stepId);
    const step = registry.steps[state.stepId];
    const output = script[state.stepId]?.shift();
    if (step === undefined || output === undefined) return { path, outcome: "no reply" };
    const read = interpretGate(step, output, { iteration: state.iteration });
    if (!read.ok) return { path, outcome: read.issues.map(formatProblem).join("; ") };
    const decided = router.route(state, read.value, { handoff: read.value.handoff });
    if (!decided.ok) return { path, outcome: decided.issues.map(formatProblem).join("; ") };
    if (decided.value.kind !== "step") return { path, outcome: decided.value.kind };
    state = decided.value.state;
  }
}

const misspelled = defineRegistry(spec("closure.dne"));
console.log(JSON.stringify({
  ...run(),
  refused: misspelled.ok ? "" : misspelled.issues.map((issue) => issue.code).join(","),
}));

export function misuse(): void {
  // @ts-expect-error a transition says its kind: the published declarations refuse a bare target
  defineRegistry({ dialect: "gate", steps: { "initial.a": { transitions: { next: { target: "x" } } } } });
}
`;

/**
 * reader.ts: a tool of one's own on the published `@climpt/protocol` alone — an executor that
 * implements the `StepExecutor` seam (checked by the compiler) and a reader that folds a journal
 * into a run summary. Prints `{"status": "...", "tokens": N, "problems": [...codes]}`.
 */
export const PROTOCOL_CONSUMER_SOURCE = `
import type { Usage } from "@climpt/model";
import {
  parseJournal,
  summarizeRun,
  type StepExecutionRequest,
  type StepExecutionResult,
  type StepExecutor,
} from "@climpt/protocol";

// An executor that answers every phase with the same output: the seam's shape, nothing more.
const usage: Usage = { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
export const fixedExecutor: StepExecutor = {
  async execute(request: StepExecutionRequest): Promise<StepExecutionResult> {
    void request.signal;
    void usage;
    return { ok: true, output: { action: "closing" }, text: "" };
  },
};

const journal = [
  { type: "run_start", runId: "r1", time: "2026-11-28T06:00:00.000Z", seq: 1, agent: "mine" },
  "not json",
  {
    type: "run_end",
    runId: "r1",
    time: "2026-11-28T06:00:02.000Z",
    seq: 3,
    result: { success: true, usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.5 }, resumable: false },
  },
]
  .map((line) => (typeof line === "string" ? line : JSON.stringify(line)))
  .join("\\n");
const { events, problems } = parseJournal(journal, "r1.jsonl");
const summary = summarizeRun(events, "r1.jsonl");
console.log(JSON.stringify({ status: summary?.status, tokens: summary?.tokens, problems: problems.map((p) => p.code) }));
`;
