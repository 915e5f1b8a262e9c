import { describe, expect, it } from "vitest";
import { chooseExecutor, executorConflicts, loadStepExecutor } from "./step-executor-choice.ts";

describe("which executor a run uses", () => {
  it("takes --executor over agent.json, and the messages executor when neither names one", () => {
    expect(chooseExecutor("messages", "claude-code")).toBe("messages");
    expect(chooseExecutor("claude-code", undefined)).toBe("claude-code");
    expect(chooseExecutor(undefined, "claude-code")).toBe("claude-code");
    expect(chooseExecutor(undefined, undefined)).toBe("messages");
  });

  it("refuses --replay and --record with Claude Code, which makes its own requests", () => {
    expect(executorConflicts("messages", { replay: true, record: true })).toEqual([]);
    expect(executorConflicts("claude-code", { replay: false, record: false })).toEqual([]);
    const [problem] = executorConflicts("claude-code", { replay: true, record: true });
    expect(problem).toMatchObject({ code: "AC-CLI-011" });
    expect(problem?.message).toContain("--replay and --record cannot be used");
    expect(problem?.hint).toContain("--executor messages");
  });

  it("loads nothing for the default, and the Claude Code step executor when chosen", async () => {
    expect(await loadStepExecutor("messages", {})).toEqual({ ok: true, executor: undefined });
    const loaded = await loadStepExecutor("claude-code", { HOME: "/nonexistent" });
    expect(loaded.ok).toBe(true);
    expect(loaded.ok && typeof loaded.executor?.execute).toBe("function");
  });
});
