import { ClimptError } from "@climpt/model";
import { StepError } from "@climpt/sdk-adapter";
import { describe, expect, it } from "vitest";
import { AgentDefinitionError, RunnerError } from "./runner-error.ts";

describe("runner errors", () => {
  it("are ClimptErrors, and never taken for a sibling class of another package", () => {
    const runner = new RunnerError({ code: "RUN-JOURNAL-001", message: "journal unreadable" });
    const step = new StepError({
      reason: "output-missing",
      message: "no output",
      step: {
        usage: {
          inputTokens: 0,
          outputTokens: 0,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 0,
        },
        costUsd: 0,
        calls: 1,
        transcript: [],
      },
    });
    expect(ClimptError.isInstance(runner)).toBe(true);
    expect(StepError.isInstance(runner)).toBe(false);
    expect(RunnerError.isInstance(step)).toBe(false);
    expect(AgentDefinitionError.isInstance(runner)).toBe(false);
  });

  it("AgentDefinitionError carries every problem and takes the first one's code", () => {
    const error = new AgentDefinitionError([
      { code: "SR-LOAD-002", severity: "error", message: "bad", hint: "fix" },
      { code: "SR-FLOW-005", severity: "warning", message: "loop" },
    ]);
    expect(AgentDefinitionError.isInstance(error)).toBe(true);
    expect(RunnerError.isInstance(error)).toBe(false);
    expect(error.code).toBe("SR-LOAD-002");
    expect(error.problems).toHaveLength(2);
    expect(error.message).toBe("The agent definition has 1 error(s) and 1 warning(s).");
  });
});
