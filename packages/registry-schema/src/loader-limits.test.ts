/**
 * Values no definition needs — nested thousands of levels, or megabytes long — end in a coded
 * SR-LOAD problem whose text stays small, never in a crash or a message that echoes the value.
 */
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { demoAgent, removeAgentFolders, writeAgentFolder } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_PROBLEM_TEXT_CHARS } from "./bounded-problems.ts";
import { inspectAgent } from "./load-agent.ts";

afterAll(removeAgentFolders);

/** `{"a":{"a":…1…}}`, `levels` deep, as text: JSON.stringify itself cannot write it. */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** The demo agent with `marker` (a JSON string in one of its files) replaced by raw `text`. */
async function demoWith(
  file: "agent.json" | "steps_registry.json" | "schemas/issue.schema.json",
  edit: (json: Record<string, unknown>) => void,
  text: string,
): Promise<string> {
  const dir = await writeAgentFolder(demoAgent());
  const target = path.join(dir, file);
  const json = JSON.parse(await readFile(target, "utf8")) as Record<string, unknown>;
  edit(json);
  await writeFile(target, JSON.stringify(json).replace('"__VALUE__"', text));
  return dir;
}

function expectBounded(problems: readonly { message: string; hint?: string; path?: string }[]) {
  for (const problem of problems) {
    expect(problem.message.length).toBeLessThanOrEqual(MAX_PROBLEM_TEXT_CHARS + 40);
    expect((problem.hint ?? "").length).toBeLessThanOrEqual(MAX_PROBLEM_TEXT_CHARS + 40);
    expect((problem.path ?? "").length).toBeLessThanOrEqual(MAX_PROBLEM_TEXT_CHARS + 40);
  }
}

describe("loader limits", () => {
  it("a 5 MB $ref is SR-LOAD-008 with the value cut short", async () => {
    const huge = `#/definitions/${"x".repeat(5_000_000)}`;
    const dir = await demoWith(
      "schemas/issue.schema.json",
      (schema) => {
        const definitions = schema.definitions as Record<string, { properties: object }>;
        const first = Object.values(definitions)[0] as { properties: Record<string, unknown> };
        first.properties.huge = { $ref: "__VALUE__" };
      },
      JSON.stringify(huge),
    );
    const { problems } = await inspectAgent(dir);
    expect(problems.map((problem) => problem.code)).toContain("SR-LOAD-008");
    const ref = problems.find((problem) => problem.code === "SR-LOAD-008");
    expect(ref?.message).toContain("more characters");
    expectBounded(problems);
  });

  it("a 5 MB key is reported with its path cut short", async () => {
    const dir = await demoWith(
      "steps_registry.json",
      (registry) => {
        registry.steps = { ...(registry.steps as object), __KEY__: "__VALUE__" };
      },
      "1",
    );
    const file = path.join(dir, "steps_registry.json");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace('"__KEY__"', JSON.stringify("k".repeat(5_000_000))));
    const { problems } = await inspectAgent(dir);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((problem) => /^[A-Z]+-[A-Z]+-\d{3}$/.test(problem.code))).toBe(true);
    expectBounded(problems);
  });

  for (const [file, edit] of [
    [
      "agent.json",
      (agent: Record<string, unknown>) => {
        (agent.runner as Record<string, unknown>).verdict = {
          type: "poll:state",
          config: { deep: "__VALUE__" },
        };
      },
    ],
    [
      "steps_registry.json",
      (registry: Record<string, unknown>) => {
        const step = Object.values(registry.steps as object)[0] as Record<string, unknown>;
        step.transitions = "__VALUE__";
      },
    ],
    [
      "schemas/issue.schema.json",
      (schema: Record<string, unknown>) => {
        const definitions = schema.definitions as Record<string, { properties: object }>;
        const first = Object.values(definitions)[0] as { properties: Record<string, unknown> };
        first.properties.deep = "__VALUE__";
      },
    ],
  ] as const) {
    it(`a value nested 100 000 levels deep in ${file} is a coded problem, not a crash`, async () => {
      const dir = await demoWith(file, edit, nested(100_000));
      const { problems } = await inspectAgent(dir);
      expect(problems.map((problem) => problem.code)).toContain("SR-LOAD-013");
      expect(problems.find((p) => p.code === "SR-LOAD-013")?.message).toContain("1000 levels deep");
      expectBounded(problems);
    });
  }
});

describe("retry prompt names", () => {
  it("a failure pattern's edition or adaptation that leaves the prompts folder is SR-LOAD-007 at load", async () => {
    const files = demoAgent();
    const registry = files.registry as Record<string, unknown>;
    registry.failurePatterns = {
      dirty: { description: "uncommitted", edition: "failed", adaptation: "../x" },
      tests: { description: "tests fail", edition: "../../y" },
    };
    registry.validationSteps = {
      "closure.issue": { stepId: "closure.issue", c2: "retry", c3: "..", validationConditions: [] },
    };
    const { problems } = await inspectAgent(await writeAgentFolder(files));
    const escapes = problems
      .filter((problem) => problem.code === "SR-LOAD-007")
      .map((problem) => problem.path);
    expect(escapes).toEqual([
      "$.failurePatterns.dirty.adaptation",
      "$.failurePatterns.tests.edition",
      '$.validationSteps["closure.issue"].c3',
    ]);
  });
});
