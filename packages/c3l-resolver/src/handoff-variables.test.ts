import type { JsonValue } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { issuesOf, okValue, step, withSteps } from "./c3l-resolver.test-helper.ts";
import { HandoffVariables } from "./handoff-variables.ts";
import { createMemoryPromptSource } from "./prompt-source.ts";
import { resolveStepPrompt } from "./resolve-step-prompt.ts";
import { collectUvVariables, type UvChannels } from "./uv-channels.ts";

type Handoff = Record<string, Record<string, JsonValue>>;

/** Channel sets with every kind of clash the precedence rules decide. */
const FIXTURES: readonly UvChannels[] = [
  {
    parameters: { issue: 123, topic: "auth" },
    runtime: { iteration: 2, remaining: 3 },
    handoff: { "initial.issue": { plan: "fix it", files: ["a.ts"] }, s_a8f3: { finding: "x" } },
  },
  {
    handoff: { a: { b_c: "a's key" }, "a.b": { c: "a.b's key", x: "path" } },
    handoffPaths: { "a.b": { x: "y.z" } },
  },
  { handoff: { s: { y_z: "key", x: "aliased" } }, handoffPaths: { s: { x: "y.z" } } },
  {
    parameters: { iteration: 9, s_plan: "typed" },
    runtime: { iteration: 1 },
    handoff: { s: { plan: "handed", deep: "d" }, t: { u: null } },
    handoffPaths: { s: { deep: "a.b.c" } },
  },
];

function sorted<T>(items: readonly T[]): string[] {
  return items.map((item) => JSON.stringify(item)).sort();
}

describe("collectUvVariables with only the names a prompt reads", () => {
  it("gives each asked name the value and origin the whole table gives it", () => {
    for (const channels of FIXTURES) {
      const whole = collectUvVariables(channels);
      const names = [...Object.keys(whole.variables), "nobody_supplies_this"];
      for (const name of names) {
        const one = collectUvVariables(channels, [name]);
        expect(one.variables[name]).toEqual(whole.variables[name]);
        expect(one.origins[name]).toEqual(whole.origins[name]);
        expect(sorted(one.shadowed)).toEqual(
          sorted(whole.shadowed.filter((clash) => clash.name === name)),
        );
      }
    }
  });

  it("gives the same table from a HandoffVariables index as from the plain record", () => {
    for (const channels of FIXTURES) {
      const whole = collectUvVariables(channels);
      const handoff = HandoffVariables.from(
        (channels.handoff ?? {}) as Handoff,
        undefined,
        channels.handoffPaths,
      );
      const indexed = collectUvVariables({ ...channels, handoff });
      expect(indexed.variables).toEqual(whole.variables);
      expect(indexed.origins).toEqual(whole.origins);
      expect(sorted(indexed.shadowed)).toEqual(sorted(whole.shadowed));
    }
  });
});

describe("HandoffVariables", () => {
  it("keeps only a step's latest handoff: a key it no longer hands off supplies nothing", () => {
    const handoff = new HandoffVariables();
    handoff.set("plan", { goal: "first", draft: "d1" });
    handoff.set("plan", { goal: "second" });
    expect(handoff.lookup("plan_goal")?.value).toBe("second");
    expect(handoff.lookup("plan_draft")).toBeUndefined();
    expect(handoff.names()).toEqual(["plan_goal"]);
    expect(handoff.byStep).toEqual({ plan: { goal: "second" } });
  });

  it("ranks steps by their first handoff, so running an earlier step again keeps its rank", () => {
    const handoff = new HandoffVariables();
    handoff.set("a", { b_c: "from a" });
    handoff.set("a.b", { c: "from a.b" });
    handoff.set("a", { b_c: "from a, again" });
    const found = handoff.lookup("a_b_c");
    expect(found?.value).toBe("from a, again");
    expect(found?.shadowed).toEqual([{ stepId: "a.b", key: "c", via: "key" }]);
  });

  it("names a value after the declared dot path of the registry it was built with", () => {
    const registry = withSteps(
      step("initial.issue", { handoff: [{ key: "plan", path: "analysis.plan" }] }),
    );
    const handoff = new HandoffVariables(registry);
    handoff.set("initial.issue", { plan: ["a"] });
    expect(handoff.lookup("initial_issue_plan")?.value).toEqual(["a"]);
    expect(handoff.lookup("initial_issue_analysis_plan")).toMatchObject({
      value: ["a"],
      via: "path",
    });
  });

  it("skips undefined values and keeps a step id like __proto__ an ordinary key", () => {
    const handoff = new HandoffVariables();
    handoff.set("__proto__", { x: 1, y: undefined });
    expect(handoff.lookup("__proto___x")?.value).toBe(1);
    expect(handoff.lookup("__proto___y")).toBeUndefined();
    expect(Object.keys(handoff.byStep)).toEqual(["__proto__"]);
  });
});

describe("resolveStepPrompt with a HandoffVariables index", () => {
  const first = step("initial.issue", { handoff: [{ key: "plan", path: "analysis.plan" }] });
  const second = step("continuation.issue", { uvVariables: ["issue"] });
  const registry = withSteps(first, second);
  const source = createMemoryPromptSource({
    "steps/continuation/issue/f_default.md":
      "Issue {uv-issue}, plan {uv-initial_issue_analysis_plan}, round {uv-iteration}.",
  });

  it("fills the prompt as the plain record does", async () => {
    const handoff = new HandoffVariables(registry);
    handoff.set("initial.issue", { plan: "ship it" });
    const plain = { "initial.issue": { plan: "ship it" } };
    const channels = { parameters: { issue: 7 }, runtime: { iteration: 2 } };
    const fromIndex = okValue(
      await resolveStepPrompt({
        registry,
        step: second,
        source,
        channels: { ...channels, handoff },
      }),
    );
    const fromRecord = okValue(
      await resolveStepPrompt({
        registry,
        step: second,
        source,
        channels: { ...channels, handoff: plain },
      }),
    );
    expect(fromIndex.text).toBe("Issue 7, plan ship it, round 2.");
    expect(fromIndex.variables).toEqual(fromRecord.variables);
  });

  it("still lists every available variable when a placeholder has no value", async () => {
    const handoff = new HandoffVariables(registry);
    handoff.set("initial.issue", { other: "x" });
    const issues = issuesOf(
      await resolveStepPrompt({
        registry,
        step: second,
        source,
        channels: { parameters: { issue: 7 }, runtime: { iteration: 2 }, handoff },
      }),
    );
    const missing = issues.find((issue) => issue.message.includes("initial_issue_analysis_plan"));
    expect(missing?.hint).toContain("initial_issue_other");
    expect(missing?.hint).toContain("iteration");
  });
});
