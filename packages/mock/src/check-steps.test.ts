import { describe, expect, it } from "vitest";
import { unknownStepProblems } from "./check-steps.ts";
import { MOCK_CODES } from "./codes.ts";
import { parseMockScript } from "./mock-script.ts";

describe("unknownStepProblems", () => {
  it("warns about rules naming a step the agent lacks, with a did-you-mean, and nothing else", () => {
    const parsed = parseMockScript(
      JSON.stringify({
        rules: [
          { step: "initial.work", reply: { text: "a" } },
          { step: "closure.don", reply: { text: "b" } },
          { step: "elsewhere.entirely", reply: { text: "c" } },
          { prompt: "no step", reply: { text: "d" } },
        ],
      }),
      "mock.json",
    );
    if (!parsed.ok) throw new Error("bad script");
    const problems = unknownStepProblems(parsed.value, "my-agent", [
      "initial.work",
      "continuation.work",
      "closure.done",
    ]);
    expect(problems).toEqual([
      {
        code: MOCK_CODES.unknownStep,
        severity: "warning",
        message:
          '$.rules[1] names step "closure.don", which my-agent does not have; did you mean "closure.done"?',
        file: "mock.json",
        path: "$.rules[1].step",
        hint: 'Write "closure.done", or remove the rule.',
      },
      expect.objectContaining({
        path: "$.rules[2].step",
        hint: "Use one of its steps (initial.work, continuation.work, closure.done), or remove the rule.",
      }),
    ]);
  });
});
