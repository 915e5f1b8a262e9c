import { problem } from "@climpt/model";
import type { RunError, RunEvent, RunResult } from "@climpt/runner";
import { describe, expect, it } from "vitest";
import { handoffTransition } from "../orchestrate/plan-transition.ts";
import { pipeline } from "../workflows.test-helper.ts";
import { isInterruption, outcomeOfRun } from "./run-outcome.ts";

function failedRun(error: RunError): RunResult {
  return {
    runId: "run-1",
    success: false,
    finalStepId: "initial.issue",
    completionReason: "error",
    iterations: 2,
    error,
    state: { history: [], handoff: {} },
    usage: {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      costUsd: 0,
    },
    journalPath: null,
    resumable: true,
    durationMs: 1,
  };
}

describe("a failed run's outcome", () => {
  it("keeps the specific code and the run-level family", () => {
    const outcome = outcomeOfRun(
      failedRun(
        problem("AC-STEP-002", "Step output does not match.", {
          family: "FAILED_SCHEMA_RESOLUTION",
        }),
      ),
      [],
      null,
    );
    expect(outcome.error).toEqual({
      code: "AC-STEP-002",
      family: "FAILED_SCHEMA_RESOLUTION",
      message: "Step output does not match.",
    });
    expect(outcome.interrupted).toBe(false);
  });

  it("is a budget ending (not an interruption) when the result names a budget or the error is of the budget family", () => {
    const closed = {
      ...failedRun(
        problem("RUN-BUDGET-001", "Ended through onBudget.", { family: "AGENT_BUDGET_EXCEEDED" }),
      ),
      budget: { limit: "maxCostUsd", max: 1, spent: 1.2, onBudget: "closure.budget" } as const,
    };
    expect(outcomeOfRun(closed, [], null)).toMatchObject({ budget: true, interrupted: false });
    const wallClock = failedRun(problem("AGENT_BUDGET_EXCEEDED", "The wall-clock budget ran out."));
    expect(outcomeOfRun(wallClock, [], null).budget).toBe(true);
    expect(outcomeOfRun(failedRun(problem("AGENT_ABORTED", "No.")), [], null).budget).toBe(false);
  });

  it("is an interruption when its family is AGENT_INTERRUPTED, whatever its specific code", () => {
    // No runner code has this family today; a stop reported with a specific code must still
    // resume the issue rather than send it to its fallback phase.
    const outcome = outcomeOfRun(
      failedRun(problem("RUN-STOP-001", "Stopped.", { family: "AGENT_INTERRUPTED" })),
      [],
      null,
    );
    expect(outcome.interrupted).toBe(true);
  });

  it("is an interruption for AGENT_INTERRUPTED itself and for a model API failure", () => {
    expect(isInterruption({ code: "AGENT_INTERRUPTED", message: "Stopped." })).toBe(true);
    expect(
      isInterruption({ code: "AC-MODEL-003", family: "AGENT_ERROR", message: "Overloaded." }),
    ).toBe(true);
  });

  it("is an interruption when a fleet's branch push failed or another worker took the journal over", () => {
    expect(isInterruption({ code: "RUN-STEP-HOOK-001", message: "git push failed." })).toBe(true);
    expect(isInterruption({ code: "ORC-JOURNAL-001", message: "Refused." })).toBe(true);
  });

  it("is not an interruption for a routing failure (it goes to the fallback phase)", () => {
    expect(
      isInterruption({
        code: "SR-INTENT-007",
        family: "FAILED_STEP_ROUTING",
        message: "No intent.",
      }),
    ).toBe(false);
    expect(isInterruption(null)).toBe(false);
  });

  it("is not an interruption for a model request the API refuses (HTTP 400) or an unknown model failure: those runs failed", () => {
    expect(
      isInterruption({
        code: "AC-MODEL-006",
        family: "AGENT_ERROR",
        message: "Bad request (400).",
      }),
    ).toBe(false);
    expect(isInterruption({ code: "AC-MODEL-010", message: "Unexpected." })).toBe(false);
    for (const code of [
      "AC-MODEL-001",
      "AC-MODEL-002",
      "AC-MODEL-004",
      "AC-MODEL-005",
      "AC-MODEL-007",
    ])
      expect(isInterruption({ code, message: "API out of reach." })).toBe(true);
  });
});

describe("a run's verdict", () => {
  it("is the runner's RunResult.verdict", () => {
    const { error: _none, ...base } = failedRun(problem("X", "unused"));
    const completed: RunResult = {
      ...base,
      success: true,
      completionReason: "done",
      verdict: "approved",
    };
    expect(outcomeOfRun(completed, [], null).verdict).toBe("approved");
  });

  it("is absent when the result has none, whatever the final step's handoff says", () => {
    const run: RunResult = {
      ...failedRun(problem("AGENT_VALIDATION_ABORT", "Validation failed.")),
      state: { history: [], handoff: { "initial.issue": { verdict: "approved" } } },
    };
    expect(outcomeOfRun(run, [], null).verdict).toBeNull();
  });

  it("is, for a failed run, the verdict the agent last declared in a step output; a completed run's comes from the runner alone", () => {
    // Step ends as the journal holds them; only `type` and `output` are read here.
    const stepEnd = (output: unknown): RunEvent =>
      ({ type: "step_end", stepId: "closure.implement", output }) as unknown as RunEvent;
    const refused = failedRun(problem("AGENT_VALIDATION_ABORT", "git-clean failed."));
    const declared = [
      stepEnd({ verdict: "ready", next_action: { action: "next" } }),
      stepEnd({ verdict: "needs-spec", next_action: { action: "closing" } }),
    ];
    expect(outcomeOfRun(refused, declared, null).verdict).toBe("needs-spec");
    // The last output declared none: no verdict, whatever an earlier step said.
    expect(
      outcomeOfRun(refused, [...declared, stepEnd({ summary: "x" })], null).verdict,
    ).toBeNull();
    const { error: _none, ...base } = refused;
    const completed: RunResult = { ...base, success: true, completionReason: "done" };
    expect(outcomeOfRun(completed, declared, null).verdict).toBeNull();
  });

  it("comes, with the final output and the comment values, from RunResult.output: no journal is read", () => {
    const refused: RunResult = {
      ...failedRun(problem("AGENT_VALIDATION_ABORT", "git-clean failed.")),
      output: { verdict: "needs-spec", final_summary: "Tests fail." },
    };
    const outcome = outcomeOfRun(refused, [], null);
    expect(outcome.verdict).toBe("needs-spec");
    expect(outcome.output).toEqual({ verdict: "needs-spec", final_summary: "Tests fail." });
    expect(outcome.values.final_summary).toBe("Tests fail.");
  });
});

describe("a completed run's evidence", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const { error: _unused, ...base } = failedRun(problem("X", "unused"));
  const completed: RunResult = {
    ...base,
    success: true,
    ledger: [
      {
        iteration: 3,
        stepId: "closure.implement",
        attempt: 1,
        time: "2026-11-28T09:00:00.000Z",
        passed: true,
        commit: { sha, tree: "f".repeat(40), clean: true, branch: "issue-7" },
        entries: [
          {
            validator: "tests",
            command: "npm test",
            passed: true,
            exitCode: 0,
            timedOut: false,
            durationMs: 1200,
            extracted: {},
            output: { sha256: "sha256:00", chars: 0, tail: "" },
          },
        ],
      },
    ],
  };

  it("is the ledger's table, and the implementer's handoff comment carries it after its template", () => {
    const outcome = outcomeOfRun(completed, [], "issue-7");
    expect(outcome.evidence).toContain(
      "| tests | `npm test` | ✅ passed (exit 0) | `0123456789ab` | 1.2 s |",
    );
    const workflow = pipeline();
    const implementing = workflow.phases.find((phase) => phase.id === "implementing");
    const reviewing = workflow.phases.find((phase) => phase.id === "reviewing");
    const implementer = workflow.agents.find((agent) => agent.id === "implementer");
    if (implementing === undefined || reviewing === undefined || implementer === undefined) {
      throw new Error("the pipeline fixture changed");
    }
    const transition = handoffTransition(workflow, {
      issue: 7,
      phase: implementing,
      agent: implementer,
      labels: [],
      outcome,
      decision: {
        outcome: "success",
        target: reviewing,
        fallback: false,
        reason: null,
        close: false,
      },
    });
    expect(transition.comment).toContain("Implemented on `issue-7`; ready for review.");
    expect(transition.comment).toContain(outcome.evidence as string);
    expect(transition.comment).toContain(`Re-check: \`climpt verify run-1\``);
  });

  it("is null for a run whose ledger never passed", () => {
    expect(outcomeOfRun(failedRun(problem("X", "failed")), [], null).evidence).toBeNull();
  });
});
