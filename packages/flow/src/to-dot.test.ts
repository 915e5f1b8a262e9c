import { describe, expect, it } from "vitest";
import {
  gateStep,
  registryOf,
  seed000Registry,
  seed003BranchingRegistry,
  seed003LinearRegistry,
  seed003RetryRegistry,
} from "./flow-registries.test-helper.ts";
import { quoteDot, toDot } from "./to-dot.ts";

describe("toDot", () => {
  it.each([
    ["seed-000", seed000Registry],
    ["seed-003-linear", seed003LinearRegistry],
    ["seed-003-branching", seed003BranchingRegistry],
    ["seed-003-retry", seed003RetryRegistry],
  ])("draws the %s flow as in its golden file", async (name, make) => {
    await expect(toDot(make())).toMatchFileSnapshot(`./golden/${name}.dot`);
  });

  it("draws step kinds as shapes and the validator gate as a diamond before End", () => {
    const text = toDot(seed003RetryRegistry(), { name: "issue-agent", rankdir: "LR" });
    expect(text.split("\n").slice(0, 2)).toEqual(['digraph "issue-agent" {', "  rankdir=LR;"]);
    expect(text).toContain('s0 [label="initial.issue", shape=box];');
    expect(text).toContain('s2 [label="closure.issue", shape=box, style="rounded,bold"];');
    expect(text).toContain('g2 [label="git-clean, type-check", shape=diamond];');
    expect(text).toContain('g2 -> s1 [label="fail: validation retry ≤3"];');
    expect(text).toContain('finish [label="End", shape=doublecircle];');
  });

  it("quotes ids with quotes and backslashes safely", () => {
    expect(quoteDot('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
    const odd = 'initial."x"\\y';
    const text = toDot(
      registryOf(
        [
          gateStep(odd, { intents: ["handoff"], transitions: { handoff: "closure.end" } }),
          gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
        ],
        {
          entryStep: odd,
        },
      ),
    );
    expect(text).toContain('s0 [label="initial.\\"x\\"\\\\y", shape=box];');
  });
});
