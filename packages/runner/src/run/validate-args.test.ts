import type { AgentParameter } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { validateArgs } from "./validate-args.ts";

const parameters: Record<string, AgentParameter> = {
  issue: { name: "issue", type: "number", required: true, cli: "--issue", description: "Issue" },
  draft: { name: "draft", type: "boolean", required: false, default: false, cli: "--draft" },
  task: { name: "task", type: "string", required: false, cli: "--task" },
};
const agent = { name: "a", parameters };

describe("validateArgs: the one check of a run's parameters", () => {
  it("converts text as a command line types it, and applies defaults", () => {
    const checked = validateArgs(agent, { issue: " 42 ", draft: "yes", task: 7 });
    expect(checked).toEqual({ ok: true, value: { issue: 42, draft: true, task: "7" } });
    expect(validateArgs(agent, { issue: "-1.5e2", draft: "OFF" })).toEqual({
      ok: true,
      value: { issue: -150, draft: false },
    });
  });

  it("refuses numbers a user does not type in decimal, and unknown boolean words", () => {
    for (const issue of ["0x10", "Infinity", "", "12abc"]) {
      const checked = validateArgs(agent, { issue });
      expect(checked.ok ? [] : checked.issues.map((problem) => problem.code), issue).toEqual([
        "RUN-ARGS-002",
      ]);
    }
    const draft = validateArgs(agent, { issue: 1, draft: "maybe" });
    expect(draft.ok ? "" : draft.issues[0]?.hint).toBe(
      "Pass --draft true (or --param draft=true).",
    );
  });

  it("names the closest declared parameter for an unknown one, and every missing one", () => {
    const checked = validateArgs(agent, { isue: 3 });
    expect(checked.ok ? [] : checked.issues).toEqual([
      expect.objectContaining({
        code: "RUN-ARGS-001",
        hint: "Did you mean issue? Declared parameters: issue (--issue), draft (--draft), task (--task).",
      }),
      expect.objectContaining({
        code: "RUN-ARGS-003",
        message: 'Agent "a" needs parameter "issue" (--issue, number): Issue.',
        hint: "Pass --issue 123 (or --param issue=123).",
      }),
    ]);
  });
});
