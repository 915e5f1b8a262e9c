import { describe, expect, it } from "vitest";
import { buildFlowGraph } from "./flow-graph.ts";
import {
  gateStep,
  registryOf,
  sectionStep,
  seed000Registry,
  seed003BranchingRegistry,
  seed003LinearRegistry,
  seed003RetryRegistry,
} from "./flow-registries.test-helper.ts";
import { escapeMermaidLabel, toMermaid } from "./to-mermaid.ts";

describe("toMermaid", () => {
  it.each([
    ["seed-000", seed000Registry],
    ["seed-003-linear", seed003LinearRegistry],
    ["seed-003-branching", seed003BranchingRegistry],
    ["seed-003-retry", seed003RetryRegistry],
  ])("draws the %s flow as in its golden file", async (name, make) => {
    await expect(toMermaid(make())).toMatchFileSnapshot(`./golden/${name}.mmd`);
  });

  it("puts the validator gate between the closure step and End, with the bounded retry leaving it", () => {
    const text = toMermaid(seed003RetryRegistry());
    expect(text).toContain('g2{"git-clean, type-check"}');
    expect(text).toContain('s2 -->|"closing"| g2');
    expect(text).toContain('g2 -->|"fail: validation retry ≤3"| s1');
    expect(text).toContain('g2 -->|"pass"| finish');
  });

  it("is deterministic and the same from a prebuilt graph", () => {
    const registry = seed003BranchingRegistry();
    expect(toMermaid(registry)).toBe(toMermaid(registry));
    expect(toMermaid(registry, { graph: buildFlowGraph(registry) })).toBe(toMermaid(registry));
  });

  it("keeps odd step ids out of the syntax: positional keys, escaped labels", () => {
    const odd = 'initial.a"b[c]|d#e<f>';
    const text = toMermaid(
      registryOf(
        [
          gateStep(odd, {
            intents: ["next", "handoff"],
            transitions: { next: "initial.gone", handoff: "closure.end" },
          }),
          sectionStep("section.ctx"),
          gateStep("closure.end", { intents: ["closing"], transitions: { closing: null } }),
        ],
        { entryStep: odd },
      ),
      { direction: "LR" },
    );
    expect(text.split("\n")[0]).toBe("flowchart LR");
    expect(text).toContain('s0["initial.a#quot;b[c]#124;d#35;e#lt;f#gt;"]');
    expect(text).toContain('m0[/"initial.gone (missing)"/]');
    expect(text).toContain('s0 -->|"next"| m0');
    expect(text).not.toContain("section.ctx");
  });

  it("escapes # first so entities it writes are not escaped again", () => {
    expect(escapeMermaidLabel('#"')).toBe("#35;#quot;");
    expect(escapeMermaidLabel("a\nb")).toBe("a b");
  });
});
