import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ClimptError,
  type JsonValue,
  VERDICT_TYPE_CAMEL_NAMES,
  VERDICT_TYPES,
  type VerdictSpec,
} from "@climpt/model";
import { describe, expect, it } from "vitest";
import type { CommandRunner } from "../command-runner.ts";
import { createExecaCommandRunner } from "../command-runner.ts";
import {
  agentDefinition,
  FIX_AGENT_DIR,
  fakeGh,
  pathWith,
  tempDir,
} from "../completion-chain.test-helper.ts";
import type { ValidationSummary } from "../validation/validation-summary.ts";
import { createVerdictStrategy } from "./create-verdict-strategy.ts";
import type { DecideContext, IterationRecord, VerdictDeps, VerdictStrategy } from "./types.ts";

const PASSED: ValidationSummary = { results: [], allPassed: true, passed: true, skipped: false };

function ctx(overrides: Partial<DecideContext> = {}): DecideContext {
  return {
    closureStepId: "closure.issue",
    closing: true,
    closureOutput: { next_action: { action: "closing" } },
    closureText: "",
    validation: PASSED,
    boundaryRequests: [],
    iteration: 5,
    ...overrides,
  };
}

function record(iteration: number, overrides: Partial<IterationRecord> = {}): IterationRecord {
  return {
    iteration,
    stepId: "continuation.issue",
    stepKind: "work",
    intent: "next",
    output: { summary: `did step ${iteration}` },
    text: "",
    ...overrides,
  };
}

const deps: VerdictDeps = { agentDir: FIX_AGENT_DIR, params: { issue: 12 } };

function spec(
  type: string,
  config: Record<string, JsonValue> = {},
  conditions?: VerdictSpec[],
): VerdictSpec {
  return {
    type: type as VerdictSpec["type"],
    declaredType: type,
    config,
    ...(conditions === undefined ? {} : { conditions }),
  };
}

const CONFIGS: Record<string, Record<string, JsonValue>> = {
  "detect:graph": {},
  "poll:state": { issue: 3 },
  "count:iteration": { maxIterations: 3 },
  "detect:keyword": { completionKeyword: "DONE" },
  "detect:structured": { signalType: "complete" },
  "count:check": { maxChecks: 2 },
  "meta:composite": {
    operator: "or",
    conditions: [{ type: "keywordSignal", config: { completionKeyword: "X" } }],
  },
  "meta:custom": { handlerPath: "verdicts/approval.mjs" },
};

async function expectCode(promise: Promise<unknown>, code: string): Promise<ClimptError> {
  try {
    await promise;
  } catch (error) {
    if (!ClimptError.isInstance(error)) throw error;
    expect(error.code).toBe(code);
    return error;
  }
  throw new Error(`expected ${code}`);
}

describe("createVerdictStrategy", () => {
  for (const type of VERDICT_TYPES) {
    const camel = VERDICT_TYPE_CAMEL_NAMES[type];
    it(`accepts ${type} and ${camel} as the same strategy`, async () => {
      const config = CONFIGS[type] ?? {};
      const canonical = await createVerdictStrategy(spec(type, config), deps);
      // A spec built by hand may carry the camelCase name in `type`.
      const aliased = await createVerdictStrategy(spec(camel, config), deps);
      expect(canonical.type).toBe(type);
      expect(aliased.type).toBe(type);
      expect(Object.getPrototypeOf(aliased)).toBe(Object.getPrototypeOf(canonical));
    });
  }

  it("accepts stepFlow as detect:graph", async () => {
    expect((await createVerdictStrategy(spec("stepFlow"), deps)).type).toBe("detect:graph");
  });

  it("rejects an unknown type with AC-VERDICT-001", async () => {
    await expectCode(createVerdictStrategy(spec("detect:vibes"), deps), "AC-VERDICT-001");
  });

  it.each<[string, Record<string, JsonValue>, string, string]>([
    ["count:iteration", {}, "maxIterations", "AC-VERDICT-003"],
    ["count:iteration", { maxIterations: 0 }, "maxIterations", "AC-VERDICT-003"],
    ["count:check", { maxChecks: "many" }, "maxChecks", "AC-VERDICT-003"],
    ["detect:keyword", { completionKeyword: "  " }, "completionKeyword", "AC-VERDICT-003"],
    ["detect:structured", {}, "signalType", "AC-VERDICT-003"],
    [
      "detect:structured",
      { signalType: "x", requiredFields: 3 },
      "requiredFields",
      "AC-VERDICT-003",
    ],
    ["meta:custom", {}, "handlerPath", "AC-VERDICT-003"],
    ["meta:composite", { operator: "xor", conditions: [] }, "operator", "AC-VERDICT-002"],
    ["meta:composite", { operator: "and" }, "conditions", "AC-VERDICT-002"],
  ])("%s with config %j fails naming %s (%s)", async (type, config, key, code) => {
    const error = await expectCode(createVerdictStrategy(spec(type, config), deps), code);
    expect(`${error.message} ${error.path}`).toContain(key);
  });

  it("poll:state without an issue fails with AC-VERDICT-003", async () => {
    await expectCode(
      createVerdictStrategy(spec("poll:state"), { agentDir: FIX_AGENT_DIR, params: {} }),
      "AC-VERDICT-003",
    );
  });
});

describe("detect:graph (stepMachine)", () => {
  it("is done when the closure validated, and never forces the closure", async () => {
    const verdict = await createVerdictStrategy(spec("stepMachine"), deps);
    verdict.observe(record(1));
    expect(
      await verdict.afterIteration({ iteration: 99, stepId: "x", stepKind: "work" }),
    ).toBeUndefined();
    expect(await verdict.decide(ctx())).toMatchObject({ done: true });
    expect(verdict.uvVariables()).toEqual({ previous_summary: "did step 1" });
  });
});

describe("count:iteration (iterationBudget)", () => {
  it("sends the flow to closure so that the closure runs as the last iteration of the budget", async () => {
    const verdict = await createVerdictStrategy(
      spec("iterationBudget", { maxIterations: 3 }),
      deps,
    );
    // remaining: the iterations left after the one whose prompt is resolved.
    expect(verdict.uvVariables({ iteration: 1 })).toEqual({ max_iterations: 3, remaining: 2 });
    verdict.observe(record(1));
    expect(
      await verdict.afterIteration({ iteration: 1, stepId: "a", stepKind: "work" }),
    ).toBeUndefined();
    verdict.observe(record(2));
    expect(verdict.uvVariables({ iteration: 3 })).toEqual({
      max_iterations: 3,
      remaining: 0,
      previous_summary: "did step 2",
    });
    // After iteration 2 the next is the last one: it must be the closure step.
    expect(await verdict.afterIteration({ iteration: 2, stepId: "a", stepKind: "work" })).toEqual({
      enterClosure: true,
      reason: "iteration budget: iteration 3 is the last of 3, so it runs the closure step",
    });
    expect(verdict.uvVariables({ iteration: 9 })).toMatchObject({ remaining: 0 });
    expect(await verdict.decide(ctx({ iteration: 3 }))).toMatchObject({ done: true });
  });

  it("a closure step's closing is done at any count; one without an intent runs until the budget", async () => {
    const verdict = await createVerdictStrategy(
      spec("count:iteration", { maxIterations: 2 }),
      deps,
    );
    expect(await verdict.decide(ctx({ iteration: 1, closing: true }))).toMatchObject({
      done: true,
    });
    const early = await verdict.decide(ctx({ iteration: 1, closing: false }));
    expect(early).toMatchObject({ done: false, reason: "completed 1 of 2 iterations" });
    expect(early.retryHint).toContain("iteration 2 of 2");
    expect(await verdict.decide(ctx({ iteration: 2, closing: false }))).toEqual({
      done: true,
      reason: "completed 2 of 2 iterations",
    });
  });
});

describe("detect:keyword (keywordSignal)", () => {
  it("is done when the closure text or a string in the output contains the keyword", async () => {
    const verdict = await createVerdictStrategy(
      spec("keywordSignal", { completionKeyword: "TASK_COMPLETE" }),
      deps,
    );
    expect(verdict.uvVariables()).toEqual({ completion_keyword: "TASK_COMPLETE" });
    expect(await verdict.decide(ctx({ closureText: "Summary: TASK_COMPLETE." }))).toMatchObject({
      done: true,
    });
    expect(
      await verdict.decide(ctx({ closureOutput: { report: { lines: ["ok", "TASK_COMPLETE"] } } })),
    ).toMatchObject({ done: true });
  });

  it("is not done without the keyword (case-sensitive) and tells the model to include it", async () => {
    const verdict = await createVerdictStrategy(
      spec("detect:keyword", { completionKeyword: "TASK_COMPLETE" }),
      deps,
    );
    const decision = await verdict.decide(
      ctx({ closureText: "task_complete", closureOutput: { TASK_COMPLETE: 1 } }),
    );
    expect(decision.done).toBe(false);
    expect(decision.retryHint).toContain('include "TASK_COMPLETE"');
  });
});

describe("detect:structured (structuredSignal)", () => {
  it("finds the signal by type, signal, a nested object, a true flag or a fenced block", async () => {
    const verdict = await createVerdictStrategy(
      spec("structuredSignal", { signalType: "complete" }),
      deps,
    );
    for (const closureOutput of [
      { type: "complete" },
      { signal: "complete" },
      { complete: { result: "ok" } },
      { complete: true },
    ] as JsonValue[]) {
      expect(await verdict.decide(ctx({ closureOutput }))).toMatchObject({ done: true });
    }
    expect(
      await verdict.decide(
        ctx({ closureOutput: null, closureText: 'Done.\n```complete\n{"result":"ok"}\n```\n' }),
      ),
    ).toMatchObject({ done: true });
  });

  it("is not done for status completed alone, or another signal, without a closing", async () => {
    const verdict = await createVerdictStrategy(
      spec("detect:structured", { signalType: "complete" }),
      deps,
    );
    const decision = await verdict.decide(
      ctx({ closing: false, closureOutput: { status: "completed", type: "progress" } }),
    );
    expect(decision.done).toBe(false);
    expect(decision.retryHint).toContain('"type":"complete"');
  });

  it("a closure step's closing counts as the signal when the output has no field for it", async () => {
    // facilitator's shape: signalType facilitator_decision, which its schema never produces.
    const verdict = await createVerdictStrategy(
      spec("detect:structured", {
        signalType: "facilitator_decision",
        requiredFields: ["recommendations", "reasoning"],
      }),
      deps,
    );
    const decision = await verdict.decide(
      ctx({ closing: true, closureOutput: { next_action: { action: "closing" } } }),
    );
    expect(decision.done).toBe(true);
    expect(decision.reason).toContain("closing counts as the signal");
    // A signal that is there must still carry its required fields.
    const partial = await verdict.decide(
      ctx({ closing: true, closureOutput: { type: "facilitator_decision", reasoning: "r" } }),
    );
    expect(partial.done).toBe(false);
    expect(partial.reason).toContain('field "recommendations" is missing');
  });

  it("checks requiredFields: a list means present, an object means equal", async () => {
    const listed = await createVerdictStrategy(
      spec("detect:structured", {
        signalType: "release",
        requiredFields: ["version", "notes.summary"],
      }),
      deps,
    );
    expect(
      await listed.decide(
        ctx({ closureOutput: { type: "release", version: "1.2.0", notes: { summary: "x" } } }),
      ),
    ).toMatchObject({ done: true });
    const missing = await listed.decide(
      ctx({ closureOutput: { type: "release", version: "1.2.0" } }),
    );
    expect(missing).toMatchObject({ done: false });
    expect(missing.reason).toContain('field "notes.summary" is missing');

    const valued = await createVerdictStrategy(
      spec("detect:structured", {
        signalType: "release",
        requiredFields: { status: "published", tags: ["a"] },
      }),
      deps,
    );
    expect(
      await valued.decide(
        ctx({ closureOutput: { release: { status: "published", tags: ["a"] } } }),
      ),
    ).toMatchObject({ done: true });
    const wrong = await valued.decide(
      ctx({ closureOutput: { release: { status: "draft", tags: ["a"] } } }),
    );
    expect(wrong.done).toBe(false);
    expect(wrong.reason).toContain('field "status" is "draft", expected "published"');
  });
});

describe("count:check (checkBudget)", () => {
  it("consumes its N status checks: a closing before the budget is not done", async () => {
    const verdict = await createVerdictStrategy(spec("checkBudget", { maxChecks: 2 }), deps);
    const first = await verdict.decide(ctx());
    expect(first).toMatchObject({ done: false, reason: "status check 1 of 2 done" });
    expect(first.retryHint).toContain("Perform the next status check");
    expect(verdict.uvVariables()).toMatchObject({ check_count: 1, max_checks: 2 });
    expect(await verdict.decide(ctx())).toMatchObject({
      done: true,
      reason: 'completed 2 of 2 status checks (closure step "closure.issue" validated)',
    });
  });

  it("counts reported checks too, and forces the closure at maxChecks", async () => {
    const verdict = await createVerdictStrategy(spec("checkBudget", { maxChecks: 3 }), deps);
    const askAfterIteration = () =>
      verdict.afterIteration({ iteration: 1, stepId: "s", stepKind: "work" });
    expect(verdict.uvVariables()).toMatchObject({ check_count: 0, max_checks: 3 });
    verdict.observe(record(1)); // a step execution is not a check
    verdict.observe(record(2, { check: { passed: false, message: "not yet" } }));
    expect(verdict.uvVariables()).toMatchObject({ check_count: 1 });
    expect(await askAfterIteration()).toBeUndefined();
    // A closure that failed validation is not a status check.
    expect(
      await verdict.decide(ctx({ validation: { ...PASSED, passed: false, allPassed: false } })),
    ).toMatchObject({ done: false });
    expect(verdict.uvVariables()).toMatchObject({ check_count: 1 });
    verdict.observe(record(3, { check: { passed: true } }));
    verdict.observe(record(4, { check: { passed: true } }));
    expect(verdict.uvVariables()).toMatchObject({ check_count: 3, max_checks: 3 });
    expect(await askAfterIteration()).toEqual({
      enterClosure: true,
      reason: "check budget used: 3 of 3 status checks",
    });
    expect(await verdict.decide(ctx())).toMatchObject({ done: true });
  });
});

describe("poll:state (externalState)", () => {
  function scripted(states: string[]): { runner: CommandRunner; calls: string[][] } {
    const calls: string[][] = [];
    const runner: CommandRunner = async (command, args) => {
      calls.push([command, ...args]);
      const state = states.shift() ?? "OPEN";
      if (state === "FAIL") return { exitCode: 1, stdout: "", stderr: "HTTP 401: Bad credentials" };
      return {
        exitCode: 0,
        stdout: JSON.stringify({ state, labels: [{ name: "bug" }] }),
        stderr: "",
      };
    };
    return { runner, calls };
  }

  it("is done when the issue already is in the target state", async () => {
    const { runner, calls } = scripted(["CLOSED"]);
    const verdict = await createVerdictStrategy(spec("externalState", { repo: "octo/demo" }), {
      ...deps,
      commandRunner: runner,
    });
    expect(await verdict.decide(ctx())).toEqual({ done: true, reason: "issue #12 is CLOSED" });
    expect(calls).toEqual([
      ["gh", "issue", "view", "12", "--json", "state,labels", "--repo", "octo/demo"],
    ]);
  });

  it("is not done while the issue is open and nothing will close it", async () => {
    const { runner } = scripted(["OPEN"]);
    const verdict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
    });
    const decision = await verdict.decide(ctx());
    expect(decision).toMatchObject({ done: false, reason: "issue #12 is OPEN, not CLOSED" });
    expect(decision.retryHint).toContain('"closure_action": "close"');
  });

  it("is done (awaiting the hook) when a boundary request will close it, and re-polls after the hook", async () => {
    const { runner, calls } = scripted(["OPEN", "CLOSED"]);
    const verdict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
    });
    const decision = await verdict.decide(
      ctx({ boundaryRequests: [{ action: "label-and-close" }] }),
    );
    expect(decision).toMatchObject({ done: true, awaitsBoundary: true });
    expect(decision.reason).toContain("the boundary hook will close it");
    expect(await verdict.confirmAfterBoundary?.({})).toEqual({
      done: true,
      reason: "issue #12 is CLOSED",
    });
    expect(calls).toHaveLength(2);
  });

  it("a label-only action is done once its labels are on the issue; closure_action close awaits the close", async () => {
    const states = [
      JSON.stringify({ state: "OPEN", labels: [{ name: "Done" }, { name: "bug" }] }),
      JSON.stringify({ state: "OPEN", labels: [{ name: "bug" }] }),
    ];
    const calls: string[][] = [];
    const runner: CommandRunner = async (command, args) => {
      calls.push([command, ...args]);
      return { exitCode: 0, stdout: states.shift() ?? "", stderr: "" };
    };
    const verdict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
    });
    const decision = await verdict.decide(
      ctx({
        boundaryRequests: [{ action: "label-only", labels: { add: ["done"], remove: ["wip"] } }],
      }),
    );
    expect(decision).toMatchObject({ done: true, awaitsBoundary: true });
    // Nothing is polled before the hook: the issue stays open by design.
    expect(calls).toEqual([]);
    // Labels compare as GitHub compares them, without case.
    expect(await verdict.confirmAfterBoundary?.({})).toEqual({
      done: true,
      reason: 'issue #12 carries labels +"done" -"wip"',
    });
    expect(await verdict.confirmAfterBoundary?.({})).toEqual({
      done: false,
      reason: 'after the boundary hook, issue #12 lacks "done"',
    });

    const { runner: open } = scripted(["OPEN"]);
    const closing = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: open,
    });
    expect(
      await closing.decide(
        ctx({ closureOutput: { closure_action: "close", next_action: { action: "closing" } } }),
      ),
    ).toMatchObject({ done: true, awaitsBoundary: true });
    // The old `action` field is not a closure action.
    const { runner: stillOpen } = scripted(["OPEN"]);
    const ignored = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: stillOpen,
    });
    expect((await ignored.decide(ctx({ closureOutput: { action: "close" } }))).done).toBe(false);
  });

  it("with the agent definition, the hook's planned action counts", async () => {
    const { runner } = scripted(["OPEN"]);
    const polling = { type: "poll:state", declaredType: "poll:state", config: {} } as const;
    const enabled = agentDefinition({
      verdict: polling,
      github: { enabled: true, labels: {}, defaultClosureAction: "close" },
    });
    const verdict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
      agent: enabled,
    });
    expect(await verdict.decide(ctx())).toMatchObject({ done: true, awaitsBoundary: true });
    // detailer's shape: label-only without labels to change: done, nothing to wait for.
    const labelOnly = agentDefinition({
      verdict: polling,
      github: { enabled: true, labels: {}, defaultClosureAction: "label-only" },
    });
    const plain = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
      agent: labelOnly,
    });
    const decision = await plain.decide(ctx());
    expect(decision.done).toBe(true);
    expect(decision.awaitsBoundary).toBeUndefined();
    // GitHub integration off: the hook does nothing, the issue must be closed already.
    const { runner: openAgain } = scripted(["OPEN"]);
    const disabled = agentDefinition({
      verdict: polling,
      github: { enabled: false, labels: {}, defaultClosureAction: "close" },
    });
    const strict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: openAgain,
      agent: disabled,
    });
    expect((await strict.decide(ctx())).done).toBe(false);
  });

  it("a failing gh is AC-VERDICT-006 with its output", async () => {
    const { runner } = scripted(["FAIL"]);
    const verdict = await createVerdictStrategy(spec("poll:state"), {
      ...deps,
      commandRunner: runner,
    });
    const error = await expectCode(verdict.decide(ctx()), "AC-VERDICT-006");
    expect(error.message).toContain("Bad credentials");
  });

  it("reads the state through a real gh program on PATH", async () => {
    const gh = fakeGh(`echo '{"state":"closed","labels":[]}'`);
    const verdict = await createVerdictStrategy(spec("poll:state", { targetState: "closed" }), {
      agentDir: FIX_AGENT_DIR,
      params: { issue: "31" },
      commandRunner: createExecaCommandRunner({ env: { ...process.env, PATH: pathWith(gh.bin) } }),
      cwd: tempDir(),
    });
    expect(await verdict.decide(ctx())).toMatchObject({
      done: true,
      reason: "issue #31 is CLOSED",
    });
    expect(gh.calls()).toEqual([["issue", "view", "31", "--json", "state,labels"]]);
  });
});

describe("meta:composite", () => {
  // Children that disagree: the keyword is present, the structured signal is not.
  const children = [
    spec("keywordSignal", { completionKeyword: "FINISHED" }),
    spec("detect:structured", { signalType: "complete" }),
  ];
  // A closure step without an intent: the structured child needs its signal.
  const disagreeing = ctx({
    closing: false,
    closureText: "FINISHED",
    closureOutput: { type: "progress" },
  });

  it("and: not done unless every child is done; the hint comes from the child that is not", async () => {
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "and" }, children),
      deps,
    );
    const decision = await verdict.decide(disagreeing);
    expect(decision.done).toBe(false);
    expect(decision.reason).toContain("[1 detect:structured]");
    expect(decision.retryHint).toContain('"complete" signal');
    expect(
      await verdict.decide(
        ctx({ closing: false, closureText: "FINISHED", closureOutput: { type: "complete" } }),
      ),
    ).toMatchObject({ done: true });
  });

  it("or: done when any child is done, and every child is asked", async () => {
    const checks = spec("count:check", { maxChecks: 10 });
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "or" }, [...children, checks]),
      deps,
    );
    const decision = await verdict.decide(disagreeing);
    expect(decision.done).toBe(true);
    expect(decision.reason).toContain("[0 detect:keyword]");
    // The check budget child counted this decide although an earlier child was already done.
    expect(verdict.uvVariables()).toMatchObject({ check_count: 1 });
    // Only the structured child is done here: a closing with no signal field counts.
    expect((await verdict.decide(ctx({ closureText: "nothing", closureOutput: {} }))).done).toBe(
      true,
    );
    expect(verdict.uvVariables()).toMatchObject({ check_count: 2 });
  });

  it("or: not done when no child is done", async () => {
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "or" }, children),
      deps,
    );
    const decision = await verdict.decide(
      ctx({ closing: false, closureText: "nope", closureOutput: {} }),
    );
    expect(decision.done).toBe(false);
    expect(decision.retryHint).toContain("FINISHED");
    expect(decision.retryHint).toContain('"complete" signal');
  });

  it("first: the first done child in order decides and later children are not asked", async () => {
    const checks = spec("count:check", { maxChecks: 10 });
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "first" }, [...children, checks]),
      deps,
    );
    const decision = await verdict.decide(disagreeing);
    expect(decision).toMatchObject({ done: true });
    expect(decision.reason).toBe('[0 detect:keyword] completion keyword "FINISHED" found');
    expect(verdict.uvVariables()).toMatchObject({ check_count: 0 });

    const reversed = await createVerdictStrategy(
      spec("composite", { operator: "first" }, [
        children[1] as VerdictSpec,
        children[0] as VerdictSpec,
      ]),
      deps,
    );
    const second = await reversed.decide(disagreeing);
    expect(second.reason).toBe('[1 detect:keyword] completion keyword "FINISHED" found');
  });

  it("feeds every child every observation and merges their UV variables", async () => {
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "or" }, [
        spec("count:iteration", { maxIterations: 4 }),
        spec("count:check", { maxChecks: 2 }),
        spec("detect:keyword", { completionKeyword: "K" }),
      ]),
      deps,
    );
    verdict.observe(record(1));
    verdict.observe(record(2, { check: { passed: false } }));
    expect(verdict.uvVariables({ iteration: 3 })).toEqual({
      previous_summary: "did step 2",
      max_iterations: 4,
      remaining: 1,
      check_count: 1,
      max_checks: 2,
      completion_keyword: "K",
    });
  });

  it("afterIteration follows the operator with budget children that disagree", async () => {
    const budgets = [
      spec("count:iteration", { maxIterations: 2 }),
      spec("count:iteration", { maxIterations: 5 }),
    ];
    const at = { iteration: 3, stepId: "s", stepKind: "work" as const };
    const and = await createVerdictStrategy(spec("composite", { operator: "and" }, budgets), deps);
    const or = await createVerdictStrategy(spec("composite", { operator: "or" }, budgets), deps);
    const first = await createVerdictStrategy(
      spec("composite", { operator: "first" }, budgets),
      deps,
    );
    expect(await and.afterIteration(at)).toBeUndefined();
    expect(await or.afterIteration(at)).toMatchObject({ enterClosure: true });
    expect((await first.afterIteration(at))?.reason).toBe(
      "[0 count:iteration] iteration budget: iteration 4 is the last of 2, so it runs the closure step",
    );
    expect(await and.afterIteration({ ...at, iteration: 4 })).toMatchObject({ enterClosure: true });
  });

  it("accepts children written in config.conditions under either spelling", async () => {
    const verdict = await createVerdictStrategy(
      spec("meta:composite", {
        operator: "and",
        conditions: [
          { type: "keywordSignal", config: { completionKeyword: "A" } },
          { type: "detect:keyword", config: { completionKeyword: "B" } },
        ],
      }),
      deps,
    );
    expect((await verdict.decide(ctx({ closureText: "A" }))).done).toBe(false);
    expect((await verdict.decide(ctx({ closureText: "A B" }))).done).toBe(true);
  });

  it("confirms after the boundary hook through the child that awaited it", async () => {
    const states = ["OPEN", "CLOSED"];
    const runner: CommandRunner = async () => ({
      exitCode: 0,
      stdout: JSON.stringify({ state: states.shift(), labels: [] }),
      stderr: "",
    });
    const verdict = await createVerdictStrategy(
      spec("composite", { operator: "and" }, [
        spec("poll:state"),
        spec("detect:keyword", { completionKeyword: "Z" }),
      ]),
      { ...deps, commandRunner: runner },
    );
    const decision = await verdict.decide(
      ctx({ closureText: "Z", boundaryRequests: [{ action: "close" }] }),
    );
    expect(decision).toMatchObject({ done: true, awaitsBoundary: true });
    expect(await verdict.confirmAfterBoundary?.({})).toMatchObject({ done: true });
  });
});

describe("meta:custom", () => {
  it("loads createVerdict from a module in the agent folder and uses it", async () => {
    const verdict = await createVerdictStrategy(
      spec("custom", { handlerPath: "verdicts/approval.mjs", minIterations: 2 }),
      { agentDir: FIX_AGENT_DIR, params: { reviewer: "kim" } },
    );
    expect(verdict.type).toBe("meta:custom");
    verdict.observe(record(1));
    const early = await verdict.decide(ctx({ closureOutput: { approved: true } }));
    expect(early).toEqual({
      done: false,
      reason: "only 1 iterations observed",
      retryHint: "keep going",
    });
    verdict.observe(record(2));
    expect(await verdict.decide(ctx({ closureOutput: { approved: true } }))).toEqual({
      done: true,
      reason: "approved by kim",
    });
    expect((await verdict.decide(ctx({ closureOutput: { approved: false } }))).done).toBe(false);
    expect(
      await verdict.afterIteration({ iteration: 5, stepId: "s", stepKind: "work" }),
    ).toMatchObject({
      enterClosure: true,
    });
    expect(verdict.uvVariables()).toEqual({ previous_summary: "custom saw 2" });
  });

  it("a custom child inside a composite is fed like any other", async () => {
    const verdict = await createVerdictStrategy(
      spec("meta:composite", { operator: "and" }, [
        spec("meta:custom", { handlerPath: "verdicts/approval.mjs" }),
        spec("detect:keyword", { completionKeyword: "OK" }),
      ]),
      { agentDir: FIX_AGENT_DIR, params: {} },
    );
    verdict.observe(record(1));
    expect(
      await verdict.decide(ctx({ closureText: "OK", closureOutput: { approved: true } })),
    ).toMatchObject({
      done: true,
    });
  });

  it.each([
    ["a path leaving the agent folder", "../bare-agent/x.mjs"],
    ["an absolute path", "/etc/passwd"],
    ["a missing file", "verdicts/nope.mjs"],
    ["a module without the interface", "verdicts/broken.mjs"],
    ["a module without createVerdict", "prompts/steps/retry/fix/f_failed_git-dirty.md"],
  ])("refuses %s with AC-VERDICT-004", async (_what, handlerPath) => {
    await expectCode(
      createVerdictStrategy(spec("meta:custom", { handlerPath }), {
        agentDir: FIX_AGENT_DIR,
        params: {},
      }),
      "AC-VERDICT-004",
    );
  });

  it("refuses a symlink that leads outside the agent folder", async () => {
    const outside = tempDir();
    writeFileSync(
      join(outside, "evil.mjs"),
      "export function createVerdict() { throw new Error('ran'); }\n",
    );
    const agentDir = tempDir();
    mkdirSync(join(agentDir, "verdicts"));
    symlinkSync(join(outside, "evil.mjs"), join(agentDir, "verdicts", "link.mjs"));
    const error = await expectCode(
      createVerdictStrategy(spec("meta:custom", { handlerPath: "verdicts/link.mjs" }), {
        agentDir,
        params: {},
      }),
      "AC-VERDICT-004",
    );
    expect(error.message).toContain("outside the agent folder");
  });
});

describe("the interface", () => {
  it("every built-in strategy implements every method", async () => {
    for (const type of VERDICT_TYPES) {
      const verdict: VerdictStrategy = await createVerdictStrategy(
        spec(type, CONFIGS[type] ?? {}),
        deps,
      );
      for (const method of ["observe", "afterIteration", "decide", "uvVariables"] as const) {
        expect(typeof verdict[method]).toBe("function");
      }
    }
  });
});
