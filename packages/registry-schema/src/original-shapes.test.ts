/**
 * The original runtime's agent shapes (packages/testing/fixtures/original-shapes) load here the
 * way they run there: what only unreachable steps lack is a warning, subprocess steps load with
 * their command, the verdict config takes the original's names and defaults, and intent aliases
 * in a schema enum are accepted.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { LoadedAgent, Problem } from "@climpt/model";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgent } from "./load-agent.ts";

const FIXTURES = new URL("../../testing/fixtures/original-shapes/", import.meta.url);
const copies: string[] = [];
afterAll(async () => {
  await Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true })));
});

type Json = Record<string, unknown>;

/** A copy of one fixture (named like it), with agent.json / steps_registry.json edited. */
async function shape(
  agent: string,
  edit: { agent?: (json: Json) => void; registry?: (json: Json) => void } = {},
): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "climpt-shape-"));
  copies.push(root);
  const dir = path.join(root, agent);
  await cp(new URL(agent, FIXTURES), dir, { recursive: true });
  for (const [file, change] of [
    ["agent.json", edit.agent],
    ["steps_registry.json", edit.registry],
  ] as const) {
    if (change === undefined) continue;
    const json = JSON.parse(await readFile(path.join(dir, file), "utf8")) as Json;
    change(json);
    await writeFile(path.join(dir, file), JSON.stringify(json));
  }
  return dir;
}

async function loads(dir: string): Promise<LoadedAgent> {
  const result = await loadAgent(dir);
  if (!result.ok) throw new Error(result.issues.map((p) => `${p.code} ${p.message}`).join("\n"));
  return result.value;
}

async function problemsOf(dir: string): Promise<readonly Problem[]> {
  const result = await loadAgent(dir);
  if (result.ok) return result.value.warnings ?? [];
  return result.issues;
}

const where = (problems: readonly Problem[], code: string) =>
  problems
    .filter((problem) => problem.code === code)
    .map((problem) => `${problem.severity} ${problem.path}`);

const runner = (json: Json) => json.runner as Json;
const steps = (json: Json) => json.steps as Record<string, Json>;

describe("variables only unreachable steps declare (SR-VALID-006)", () => {
  it("are warnings: iterator loads for poll:state although its project, iteration and section steps lack variables", async () => {
    const loaded = await loads(await shape("iterator"));
    const warnings = loaded.warnings ?? [];
    expect(warnings.every((problem) => problem.severity === "warning")).toBe(true);
    expect(where(warnings, "SR-VALID-006")).toEqual([
      'warning $.steps["section.projectcontext"].uvVariables[0]',
      'warning $.steps["section.projectcontext"].uvVariables[1]',
      'warning $.steps["initial.project.preparation"].uvVariables[0]',
      'warning $.steps["initial.project.preparation"].uvVariables[1]',
      'warning $.steps["initial.project.preparation"].uvVariables[2]',
      'warning $.steps["initial.project.review"].uvVariables[0]',
      'warning $.steps["initial.project.review"].uvVariables[1]',
      'warning $.steps["initial.project.closure"].uvVariables[0]',
      'warning $.steps["initial.project.closure"].uvVariables[1]',
      'warning $.steps["initial.iteration"].uvVariables[0]',
    ]);
    const iteration = warnings.find((problem) => problem.path?.includes("initial.iteration"));
    expect(iteration?.message).toContain(
      'not reachable from the poll:state entry "initial.polling"',
    );
  });

  it("stay errors in the steps the run's entry reaches", async () => {
    // The same folder run as count:iteration starts at initial.iteration, whose "iterations"
    // nothing supplies.
    const dir = await shape("iterator", {
      agent: (json) => {
        runner(json).verdict = { type: "count:iteration", config: { maxIterations: 5 } };
      },
    });
    const result = await loadAgent(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(where(result.issues, "SR-VALID-006")).toContain(
      'error $.steps["initial.iteration"].uvVariables[0]',
    );
    expect(where(result.issues, "SR-VALID-006")).toContain(
      'warning $.steps["initial.project.preparation"].uvVariables[0]',
    );
  });

  it("reviewer loads for poll:state; its count:iteration entry's three variables are warnings", async () => {
    const loaded = await loads(await shape("reviewer"));
    expect(where(loaded.warnings ?? [], "SR-VALID-006")).toEqual([
      'warning $.steps["initial.default"].uvVariables[0]',
      'warning $.steps["initial.default"].uvVariables[1]',
      'warning $.steps["initial.default"].uvVariables[2]',
    ]);
  });
});

describe("optional parameters without a default used as variables (SR-VALID-008)", () => {
  it("warn for the steps a run reaches, not for unreachable ones", async () => {
    const loaded = await loads(await shape("facilitator"));
    const found = where(loaded.warnings ?? [], "SR-VALID-008");
    expect(found).toContain('warning $.steps["initial.statuscheck"].uvVariables[0]');
    expect(found).toContain('warning $.steps["initial.report"].uvVariables[0]');
    expect(found.some((entry) => entry.includes("initial.statuscheck.empty"))).toBe(false);
    const first = (loaded.warnings ?? []).find((problem) => problem.code === "SR-VALID-008");
    expect(first?.message).toContain("--project");
  });
});

describe("subprocess closure steps", () => {
  it("load with their command, arguments, timeout and context references, without a gate", async () => {
    const loaded = await loads(await shape("merger"));
    const merge = loaded.registry.steps.merge;
    expect(merge?.kind).toBe("closure");
    expect(merge?.subprocess).toEqual({
      command: "node",
      args: [
        ".agent/merger/scripts/merge-pr.mjs",
        "--pr",
        `\${context.prNumber}`,
        "--verdict",
        `\${context.verdictPath}`,
      ],
      timeoutMs: 30_000,
      contextKeys: ["prNumber", "verdictPath"],
    });
    expect(loaded.warnings ?? []).toEqual([]);
  });

  it("need no gate in a gated registry, and read a duration timeout", async () => {
    const dir = await shape("merger", {
      registry: (json) => {
        const merge = steps(json).merge as Json;
        (merge.runner as Json).timeout = "2m";
        // A gated sibling makes the registry gated: the subprocess step still needs no gate.
        steps(json)["closure.other"] = {
          stepId: "closure.other",
          c2: "closure",
          c3: "other",
          structuredGate: {
            allowedIntents: ["closing"],
            intentSchemaRef: "#/properties/next_action/properties/action",
            intentField: "next_action.action",
          },
          transitions: { closing: { target: null } },
        };
      },
    });
    const problems = await problemsOf(dir);
    expect(
      problems.filter(
        (problem) => problem.path?.includes('"merge"') || problem.path === "$.steps.merge",
      ),
    ).toEqual([]);
    const result = await loadAgent(dir);
    if (result.ok) expect(result.value.registry.steps.merge?.subprocess?.timeoutMs).toBe(120_000);
  });

  it("refuse a runner on a work step and warn about context keys no parameter supplies", async () => {
    const dir = await shape("merger", {
      registry: (json) => {
        const merge = steps(json).merge as Json;
        merge.stepKind = "work";
        (merge.runner as Json).args = ["--pr", `\${context.pr}`, `\${context.}`];
      },
    });
    const problems = await problemsOf(dir);
    expect(where(problems, "SR-VALID-009")).toEqual([
      "error $.steps.merge.runner",
      "error $.steps.merge.runner.args[2]",
    ]);
    const unknown = problems.find((problem) => problem.code === "SR-VALID-010");
    expect(unknown?.severity).toBe("warning");
    expect(unknown?.path).toBe("$.steps.merge.runner.args[1]");
    expect(unknown?.hint).toContain(`\${context.prNumber}`);
  });
});

describe("verdict config as the original writes it", () => {
  it("accepts verdictKeyword for detect:keyword and copies it to completionKeyword", async () => {
    const dir = await shape("considerer", {
      agent: (json) => {
        runner(json).verdict = { type: "detect:keyword", config: { verdictKeyword: "ANSWERED" } };
      },
      registry: (json) => {
        json.entryStepMapping = { "detect:keyword": "consider" };
      },
    });
    const loaded = await loads(dir);
    expect(loaded.agent.verdict.config.completionKeyword).toBe("ANSWERED");
  });

  it("refuses two different keywords and a detect:keyword verdict without any", async () => {
    const both = await shape("considerer", {
      agent: (json) => {
        runner(json).verdict = {
          type: "keywordSignal",
          config: { verdictKeyword: "A", completionKeyword: "B" },
        };
      },
    });
    expect(where(await problemsOf(both), "AC-VERDICT-003")).toEqual([
      "error $.runner.verdict.config.verdictKeyword",
    ]);
    const none = await shape("considerer", {
      agent: (json) => {
        runner(json).verdict = { type: "detect:keyword", config: {} };
      },
    });
    expect(where(await problemsOf(none), "AC-VERDICT-003")).toEqual([
      "error $.runner.verdict.config.completionKeyword",
    ]);
  });

  it("gives count:iteration 100 iterations and count:check 10 checks when the config says nothing", async () => {
    const iteration = await loads(
      await shape("considerer", {
        agent: (json) => {
          runner(json).verdict = { type: "count:iteration" };
        },
      }),
    );
    expect(iteration.agent.verdict.config.maxIterations).toBe(100);
    const check = await loads(
      await shape("considerer", {
        agent: (json) => {
          runner(json).verdict = { type: "checkBudget", config: {} };
        },
        registry: (json) => {
          json.entryStepMapping = { "count:check": "consider" };
        },
      }),
    );
    expect(check.agent.verdict.config.maxChecks).toBe(10);
  });

  it("refuses a maxIterations that is not a positive integer under any verdict type (it is the run cap)", async () => {
    const dir = await shape("iterator", {
      agent: (json) => {
        runner(json).verdict = { type: "poll:state", config: { maxIterations: 2.5 } };
      },
    });
    expect(where(await problemsOf(dir), "AC-VERDICT-003")).toEqual([
      "error $.runner.verdict.config.maxIterations",
    ]);
  });
});

describe("abort with a null target (SR-TRANS-002)", () => {
  it("loads: { target: null } is how a definition says terminate", async () => {
    const dir = await shape("considerer", {
      registry: (json) => {
        const consider = steps(json).consider as Json;
        (consider.transitions as Json).abort = { target: null };
      },
    });
    const loaded = await loads(dir);
    expect(loaded.registry.steps.consider?.transitions.abort).toEqual({
      kind: "target",
      target: null,
    });
  });

  it("is still refused on other intents", async () => {
    const dir = await shape("considerer", {
      registry: (json) => {
        const consider = steps(json).consider as Json;
        (consider.transitions as Json).repeat = { target: null };
      },
    });
    expect(where(await problemsOf(dir), "SR-TRANS-002")).toEqual([
      "error $.steps.consider.transitions.repeat.target",
    ]);
  });
});

describe("intent aliases in a schema enum (SR-INTENT-005)", () => {
  it("accepts an alias of an allowed intent and widens the accepted schema by the allowed intents' aliases", async () => {
    const loaded = await loads(await shape("iterator"));
    expect(loaded.warnings?.some((problem) => problem.code === "SR-INTENT-005")).toBe(false);
    const polling = loaded.registry.steps["continuation.polling"];
    const sent = polling?.outputSchema as Json;
    const accepted = polling?.acceptedOutputSchema as Json;
    const action = (schema: Json) =>
      (((schema.properties as Json).next_action as Json).properties as Json).action as Json;
    // The model is sent the enum as written …
    expect(action(sent).enum).toEqual(["next", "repeat", "handoff", "wait"]);
    // … and a reply is accepted with any alias of an allowed intent.
    expect(action(accepted).enum).toEqual([
      "next",
      "repeat",
      "handoff",
      "wait",
      "continue",
      "pass",
      "retry",
      "fail",
    ]);
  });

  it("refuses an alias of an intent the step may not use", async () => {
    const dir = await shape("iterator");
    const file = path.join(dir, "schemas", "polling.schema.json");
    const schema = JSON.parse(await readFile(file, "utf8")) as Record<string, Json>;
    const action = (
      ((schema["continuation.polling"] as Json).properties as Json).next_action as Json
    ).properties as Json;
    (action.action as Json).enum = ["next", "repeat", "handoff", "done"];
    await writeFile(file, JSON.stringify(schema));
    const problems = await problemsOf(dir);
    const mismatch = problems.find((problem) => problem.code === "SR-INTENT-005");
    expect(mismatch?.severity).toBe("error");
    expect(mismatch?.message).toContain("done (an alias of closing), which allowedIntents lacks");
  });
});
