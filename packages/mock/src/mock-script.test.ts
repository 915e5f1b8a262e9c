import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MOCK_CODES } from "./codes.ts";
import { loadMockScript, parseMockScript } from "./mock-script.ts";

function problemsOf(text: string) {
  const result = parseMockScript(text, "mock.json");
  if (result.ok) throw new Error("expected problems");
  return result.issues;
}

describe("parseMockScript", () => {
  it("reads rules with turns, a single reply, prompt matches, latency and failFirst", () => {
    const result = parseMockScript(
      JSON.stringify({
        rules: [
          {
            name: "plan",
            step: "initial.work",
            turns: [
              { toolCalls: [{ name: "Glob", input: { pattern: "*" } }], text: "Looking." },
              { output: { ok: true }, delayMs: 50 },
            ],
          },
          { promptMatches: "commit \\w+", reply: { text: "hi", failFirst: { status: 529 } } },
          { prompt: "broken", reply: { error: { status: 401, type: "authentication_error" } } },
        ],
      }),
      "mock.json",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [plan, commit, broken] = result.value.rules;
    expect(plan).toMatchObject({ path: "$.rules[0]", name: "plan", step: "initial.work" });
    expect(plan?.turns[0]?.answer).toEqual({
      kind: "toolCalls",
      calls: [{ name: "Glob", input: { pattern: "*" } }],
      text: "Looking.",
    });
    expect(plan?.turns[1]).toEqual({
      answer: { kind: "output", output: { ok: true } },
      delayMs: 50,
    });
    expect(commit?.promptMatches?.test("please commit everything")).toBe(true);
    expect(commit?.turns[0]?.failFirst).toEqual({ status: 529, times: 1 });
    expect(broken?.turns[0]?.answer).toEqual({
      kind: "error",
      error: { status: 401, type: "authentication_error" },
    });
  });

  it("reports every bad entry at once, each with the file, its JSON path and a fix", () => {
    const problems = problemsOf(
      JSON.stringify({
        rules: [
          { step: "a", turns: [{}] },
          { step: "b", reply: { output: 1, text: "x" }, extra: true },
          { promptMatches: "(", reply: { error: { status: 200 } } },
          { step: "c", reply: { output: {}, delayMs: -1, failFirst: { status: 529, times: 0 } } },
          { step: "d" },
        ],
      }),
    );
    expect(problems.every((p) => p.code === MOCK_CODES.badScript && p.file === "mock.json")).toBe(
      true,
    );
    expect(problems.every((p) => typeof p.hint === "string" && p.hint.length > 0)).toBe(true);
    expect(problems.map((p) => p.path)).toEqual([
      "$.rules[0].turns[0]",
      "$.rules[1].extra",
      "$.rules[1].reply",
      "$.rules[2].promptMatches",
      "$.rules[2].reply.error.status",
      "$.rules[3].reply.delayMs",
      "$.rules[3].reply.failFirst.times",
      "$.rules[4]",
    ]);
    expect(problems[0]?.message).toMatch(
      /exactly one of output, text, toolCalls or error; it has none/,
    );
    expect(problems[2]?.message).toMatch(/it has output and text/);
  });

  it("says what is wrong with a file that is not JSON, or not there", async () => {
    expect(problemsOf("{ rules: [")[0]).toMatchObject({
      code: MOCK_CODES.unreadable,
      file: "mock.json",
    });
    expect(problemsOf("[]")[0]).toMatchObject({ code: MOCK_CODES.badScript, path: "$" });
    const dir = await mkdtemp(join(tmpdir(), "mock-script-"));
    try {
      const missing = await loadMockScript(join(dir, "nope.json"));
      expect(missing.ok).toBe(false);
      if (!missing.ok) expect(missing.issues[0]?.code).toBe(MOCK_CODES.unreadable);
      await writeFile(join(dir, "ok.json"), '{"rules":[]}');
      expect((await loadMockScript(join(dir, "ok.json"))).ok).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
