import { readFileSync } from "node:fs";
import { ownEntry, type Problem, type Registry, type Step } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { normalizeRegistry } from "./normalize-registry.ts";
import { detectRegistryDialect } from "./registry-dialect.ts";

function fixture(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${path}`, import.meta.url), "utf8"));
}

function normalized(raw: unknown): Registry {
  const result = normalizeRegistry(raw, { file: "steps_registry.json" });
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.value;
}

function problems(raw: unknown): readonly Problem[] {
  const result = normalizeRegistry(raw, { file: "steps_registry.json" });
  return result.ok ? [] : result.issues;
}

const codesAndPaths = (raw: unknown) => problems(raw).map((p) => `${p.code} ${p.path}`);

/** The smallest valid gate step: a work step that repeats itself. */
function gateStep(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { stepId: id, c2: id.split(".")[0], c3: "x", ...extra };
}

describe("check dialect (seeds 000 and 002)", () => {
  it("reads the code-improver's check-dialect registry", () => {
    const registry = normalized(fixture("seed-000/code-improver/steps_registry.json"));
    expect(registry).toMatchObject({
      dialect: "check",
      version: "2.0.0",
      c1: "steps",
      promptsBase: "prompts",
      schemasBase: "schemas",
      pathTemplate: "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md",
      pathTemplateNoAdaptation: "{c1}/{c2}/{c3}/f_{edition}.md",
      entryStep: "s_a8f3",
      entryStepMapping: {},
      validators: {},
      failurePatterns: {},
      validationSteps: {},
    });
    expect(Object.keys(registry.steps)).toEqual(["s_a8f3", "s_b2c1", "s_c9d4"]);
    expect(registry.steps.s_a8f3).toEqual({
      id: "s_a8f3",
      name: "Code Analysis",
      kind: "work",
      kindSource: "inferred",
      prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: "analyze", edition: "default" },
      uvVariables: [],
      usesStdin: false,
      transitions: {},
      check: {
        prompt: { kind: "c3l", c1: "checks", c2: "step", c3: "analyze", edition: "default" },
        responseFormat: { result: "ok|ng", message: "string" },
        onPass: { kind: "next", target: "s_b2c1" },
        onFail: { kind: "retry", maxRetries: 2 },
      },
      iterations: { min: 1, max: 1, declared: true },
      handoff: [],
      permissions: {},
    } satisfies Step);
    expect(registry.steps.s_b2c1?.iterations).toEqual({ min: 1, max: 5, declared: true });
    expect(registry.steps.s_b2c1?.check?.onFail).toEqual({ kind: "fallback", target: "s_a8f3" });
    // The step whose passing check completes the agent is the closure step.
    expect(registry.steps.s_c9d4?.kind).toBe("closure");
    expect(registry.steps.s_c9d4?.check?.onPass).toEqual({ kind: "complete" });
  });

  it("reads the check-dialect handoff registry with its handoff keys", () => {
    const registry = normalized(fixture("seed-002/handoff-flow/steps_registry.json"));
    expect(registry.dialect).toBe("check");
    expect(registry.version).toBe("0.0.0");
    expect(registry.entryStep).toBe("s_analysis");
    expect(registry.steps.s_analysis?.handoff).toEqual([
      { key: "issue_context", path: "issue_context", description: "課題の再定義" },
    ]);
    expect(registry.steps.s_impl?.handoff.map((field) => field.key)).toEqual(["plan", "diff"]);
    expect(registry.steps.s_impl?.check).toEqual({
      responseFormat: { result: "ok|ng" },
      onPass: { kind: "next", target: "s_review" },
      onFail: { kind: "retry", maxRetries: 2 },
    });
    // No iterations written: the defaults {1, 1}.
    expect(registry.steps.s_review?.iterations).toEqual({ min: 1, max: 1 });
    expect(registry.steps.s_review?.kind).toBe("closure");
  });

  it("lets a declared stepKind win, reads {path} prompts and defaults maxRetries", () => {
    const registry = normalized({
      basePath: "./prompts/",
      entryStep: "s_01",
      steps: {
        s_01: {
          stepKind: "verification",
          prompt: { path: "steps/verify.md" },
          iterations: { min: 2 },
          check: { onPass: { complete: true }, onFail: { retry: true } },
        },
        s_02: {
          prompt: { c2: "phase", c3: "extra", edition: "strict", adaptation: "fast" },
          check: { onPass: { next: "s_01" }, onFail: { retry: false } },
        },
      },
    });
    expect(registry.promptsBase).toBe("prompts");
    expect(registry.steps.s_01).toMatchObject({
      kind: "verification",
      kindSource: "declared",
      prompt: { kind: "path", path: "steps/verify.md" },
      iterations: { min: 2, max: 2 },
      check: { onPass: { kind: "complete" }, onFail: { kind: "retry", maxRetries: 3 } },
    });
    expect(registry.steps.s_02?.prompt).toEqual({
      kind: "c3l",
      c1: "steps",
      c2: "phase",
      c3: "extra",
      edition: "strict",
      adaptation: "fast",
    });
    // retry: false declares no recovery.
    expect(registry.steps.s_02?.check?.onFail).toBeUndefined();
  });

  it("checks onPass.next and onFail.fallback targets", () => {
    expect(
      codesAndPaths({
        entryStep: "s_a",
        steps: {
          s_a: {
            prompt: { c2: "a", c3: "a" },
            check: { onPass: { next: "s_x" }, onFail: { fallback: "s_y" } },
          },
        },
      }),
    ).toEqual([
      "SR-TRANS-001 $.steps.s_a.check.onPass.next",
      "SR-TRANS-001 $.steps.s_a.check.onFail.fallback",
    ]);
  });
});

describe("gate dialect", () => {
  it("fills the defaults", () => {
    const registry = normalized({
      version: "1.0.0",
      entryStep: "initial.issue",
      steps: { "initial.issue": { c2: "initial", c3: "issue" } },
    });
    expect(registry).toMatchObject({
      dialect: "gate",
      c1: "steps",
      promptsBase: "prompts",
      schemasBase: "schemas",
      pathTemplate: "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md",
      pathTemplateNoAdaptation: "{c1}/{c2}/{c3}/f_{edition}.md",
    });
    expect(registry.steps["initial.issue"]).toEqual({
      id: "initial.issue",
      kind: "work",
      kindSource: "inferred",
      prompt: { kind: "c3l", c1: "steps", c2: "initial", c3: "issue", edition: "default" },
      uvVariables: [],
      usesStdin: false,
      transitions: {},
      iterations: { min: 1, max: 1 },
      handoff: [],
      permissions: {},
    } satisfies Step);
  });

  it("loads a registry in which no step is gated (the older style)", () => {
    const registry = normalized({
      entryStepMapping: { "count:iteration": "initial.iterate" },
      steps: {
        "initial.iterate": gateStep("initial.iterate", { fallbackKey: "initial_iterate" }),
        "continuation.iterate": gateStep("continuation.iterate"),
      },
    });
    expect(Object.values(registry.steps).map((step) => step.gate)).toEqual([undefined, undefined]);
  });

  it("infers the kind from c2, then from the id prefix; a declared stepKind wins", () => {
    const registry = normalized({
      entryStep: "initial.a",
      steps: {
        "initial.a": gateStep("initial.a"),
        "verification.a": gateStep("verification.a"),
        "closure.a": gateStep("closure.a"),
        "section.a": gateStep("section.a"),
        consider: { stepId: "consider", c2: "closure", c3: "consider" },
        "closure.scan": { ...gateStep("closure.scan"), stepKind: "work" },
      },
    });
    expect(
      Object.values(registry.steps).map((step) => [step.id, step.kind, step.kindSource]),
    ).toEqual([
      ["initial.a", "work", "inferred"],
      ["verification.a", "verification", "inferred"],
      ["closure.a", "closure", "inferred"],
      ["section.a", "section", "inferred"],
      ["consider", "closure", "inferred"],
      ["closure.scan", "work", "declared"],
    ]);
  });

  it("turns handoffFields into handoff keys named by their last segment", () => {
    const registry = normalized({
      entryStep: "initial.a",
      steps: {
        "initial.a": gateStep("initial.a", {
          structuredGate: {
            allowedIntents: ["next", "repeat"],
            intentSchemaRef: "#/properties/next_action/properties/action",
            intentField: "next_action.action",
            handoffFields: ["analysis.understanding", "analysis.approach", "files[0]", "summary"],
          },
          transitions: { next: { target: "initial.a" } },
          outputSchemaRef: { file: "a.schema.json", schema: "initial.a" },
        }),
      },
    });
    const step = registry.steps["initial.a"];
    expect(step?.gate).toEqual({
      allowedIntents: ["next", "repeat"],
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: ["analysis.understanding", "analysis.approach", "files[0]", "summary"],
      failFast: true,
    });
    expect(step?.handoff).toEqual([
      { key: "understanding", path: "analysis.understanding" },
      { key: "approach", path: "analysis.approach" },
      { key: "files", path: "files[0]" },
      { key: "summary", path: "summary" },
    ]);
  });

  it("reads simple, terminal and conditional transitions", () => {
    const registry = normalized({
      entryStep: "initial.a",
      steps: {
        "initial.a": gateStep("initial.a", {
          transitions: {
            next: {
              condition: "status",
              targets: { ready: "closure.a", blocked: "initial.a", default: "initial.a" },
            },
            repeat: { target: "initial.a" },
          },
        }),
        "closure.a": gateStep("closure.a", {
          transitions: { closing: { target: null }, repeat: { target: "initial.a" } },
        }),
      },
    });
    expect(registry.steps["initial.a"]?.transitions).toEqual({
      next: {
        kind: "conditional",
        condition: "status",
        targets: { ready: "closure.a", blocked: "initial.a", default: "initial.a" },
      },
      repeat: { kind: "target", target: "initial.a" },
    });
    expect(registry.steps["closure.a"]?.transitions.closing).toEqual({
      kind: "target",
      target: null,
    });
  });

  it("reads the secret variables a validator and a program step declare by name (env)", () => {
    const registry = normalized({
      entryStep: "closure.a",
      steps: {
        "closure.a": gateStep("closure.a", {
          runner: { command: "node", args: ["merge.js"], env: ["GH_MERGE_TOKEN"] },
        }),
      },
      validators: {
        publish: {
          command: "npm publish --dry-run",
          successWhen: "exitCode:0",
          failurePattern: "f",
          env: ["NPM_TOKEN", "REGISTRY_URL", "NPM_TOKEN"],
        },
        plain: { command: "true", successWhen: "exitCode:0", failurePattern: "f" },
      },
      failurePatterns: { f: { edition: "failed" } },
    });
    expect(registry.validators.publish?.env).toEqual(["NPM_TOKEN", "REGISTRY_URL"]);
    expect(registry.validators.plain).not.toHaveProperty("env");
    expect(registry.steps["closure.a"]?.subprocess?.env).toEqual(["GH_MERGE_TOKEN"]);
  });

  it("refuses an env that is not a list of variable names, without repeating the value (SR-VALID-011)", () => {
    const token = "sk-live-0123456789abcdefABCDEF0123456789";
    const found = problems({
      entryStep: "closure.a",
      steps: {
        "closure.a": gateStep("closure.a", { runner: { command: "node", env: token } }),
      },
      validators: {
        publish: {
          command: "npm publish --dry-run",
          successWhen: "exitCode:0",
          failurePattern: "f",
          env: ["NPM_TOKEN", token, 7, "ANTHROPIC_API_KEY"],
        },
      },
      failurePatterns: { f: { edition: "failed" } },
    }).filter((problem) => problem.code === "SR-VALID-011");
    expect(found.map((problem) => problem.path)).toEqual([
      '$.steps["closure.a"].runner.env',
      "$.validators.publish.env[1]",
      "$.validators.publish.env[2]",
      "$.validators.publish.env[3]",
    ]);
    for (const problem of found) {
      expect(problem.file).toBe("steps_registry.json");
      expect(problem.hint).not.toBe("");
      expect(JSON.stringify(problem)).not.toContain(token);
    }
    expect(found[3]?.message).toContain("the model's own credential");
  });

  it("reads a validator's baseline, absent when not written (the default is off)", () => {
    const registry = normalized({
      entryStep: "closure.a",
      steps: { "closure.a": gateStep("closure.a") },
      validators: {
        tests: {
          command: "npm test",
          successWhen: "exitCode:0",
          failurePattern: "f",
          baseline: "compare",
        },
        lint: {
          command: "npm run lint",
          successWhen: "exitCode:0",
          failurePattern: "f",
          baseline: "off",
        },
        clean: { command: "git status --porcelain", successWhen: "empty", failurePattern: "f" },
      },
      failurePatterns: { f: { edition: "failed" } },
    });
    expect(registry.validators.tests?.baseline).toBe("compare");
    expect(registry.validators.lint?.baseline).toBe("off");
    expect(registry.validators.clean).not.toHaveProperty("baseline");
  });

  it("refuses a baseline other than compare or off, where it is and what to write (SR-VALID-012)", () => {
    const found = problems({
      entryStep: "closure.a",
      steps: { "closure.a": gateStep("closure.a") },
      validators: {
        tests: {
          command: "npm test",
          successWhen: "exitCode:0",
          failurePattern: "f",
          baseline: "strict",
        },
        lint: {
          command: "npm run lint",
          successWhen: "exitCode:0",
          failurePattern: "f",
          baseline: true,
        },
      },
      failurePatterns: { f: { edition: "failed" } },
    });
    expect(found.map((problem) => `${problem.code} ${problem.path}`)).toEqual([
      "SR-VALID-012 $.validators.tests.baseline",
      "SR-VALID-012 $.validators.lint.baseline",
    ]);
    expect(found[0]?.message).toContain('"compare"');
    expect(found[0]?.message).toContain('"strict"');
    expect(found[0]?.file).toBe("steps_registry.json");
    expect(found[0]?.hint).toContain('"off"');
  });

  it("reads validators, failure patterns and validation steps", () => {
    const registry = normalized({
      entryStep: "closure.a",
      steps: { "closure.a": gateStep("closure.a") },
      validators: {
        tests: {
          command: "pnpm test",
          successWhen: "exitCode:0",
          failurePattern: "tests-failed",
          extractParams: { failures: "parseTestOutput" },
          timeout: "90s",
        },
        lint: {
          type: "command",
          description: "Biome",
          command: "pnpm lint",
          successWhen: "matches:^Checked \\d+ files",
          failurePattern: "tests-failed",
          timeoutMs: 5000,
        },
      },
      failurePatterns: { "tests-failed": { edition: "failed", adaptation: "tests" } },
      validationSteps: {
        "closure.polling": {
          postLLMConditions: [{ validator: "tests", params: { scope: "unit" } }],
        },
      },
    });
    expect(registry.validators.tests).toEqual({
      id: "tests",
      type: "command",
      command: "pnpm test",
      successWhen: "exitCode:0",
      success: { kind: "exitCode", code: 0 },
      failurePattern: "tests-failed",
      extractParams: { failures: "parseTestOutput" },
      timeoutMs: 90_000,
    });
    expect(registry.validators.lint?.success).toEqual({
      kind: "matches",
      pattern: "^Checked \\d+ files",
    });
    expect(registry.validators.lint?.timeoutMs).toBe(5000);
    expect(registry.failurePatterns["tests-failed"]).toEqual({
      id: "tests-failed",
      description: "tests-failed",
      edition: "failed",
      adaptation: "tests",
      params: [],
    });
    expect(registry.validationSteps["closure.polling"]).toEqual({
      id: "closure.polling",
      stepId: "closure.polling",
      conditions: [{ validator: "tests", params: { scope: "unit" } }],
      onFailure: { action: "retry" },
    });
  });

  it("keeps a step keyed __proto__ as an ordinary step", () => {
    const raw: unknown = JSON.parse(
      '{"entryStep": "__proto__", "steps": {"__proto__": {"c2": "initial", "c3": "x"}}}',
    );
    const registry = normalized(raw);
    expect(Object.keys(registry.steps)).toEqual(["__proto__"]);
    // No prototype at all: a lookup of any other name finds nothing, `toString` included.
    expect(Object.getPrototypeOf(registry.steps)).toBe(null);
    expect(registry.steps.toString).toBeUndefined();
    expect(ownEntry(registry.steps, "__proto__")?.id).toBe("__proto__");
  });

  it("keeps unknown extra fields out of the model without complaint", () => {
    const registry = normalized({
      $comment: "anything",
      entryStep: "initial.a",
      steps: { "initial.a": gateStep("initial.a", { type: "prompt", owner: { team: "x" } }) },
    });
    expect(registry.steps["initial.a"]).not.toHaveProperty("type");
  });
});

describe("prompt and schema folders", () => {
  it.each([
    [".agent/iterator/prompts", "prompts"],
    [".agent/renamed-copy/prompts/v2", "prompts/v2"],
    ["./prompts/", "prompts"],
    ["custom/prompts", "custom/prompts"],
    ["prompts/../other", "other"],
    [".agent/iterator", "."],
  ])("userPromptsBase %s resolves to %s inside the agent folder", (written, expected) => {
    const registry = normalized({
      userPromptsBase: written,
      schemasBase: ".agent/iterator/schemas",
      entryStep: "initial.a",
      steps: { "initial.a": gateStep("initial.a") },
    });
    expect(registry.promptsBase).toBe(expected);
    expect(registry.schemasBase).toBe("schemas");
  });

  it.each(["/etc", "../shared/prompts", "prompts/../../x", "C:/prompts"])(
    "rejects %s, which leaves the agent folder",
    (written) => {
      expect(
        codesAndPaths({
          basePath: written,
          entryStep: "s_1",
          steps: { s_1: { prompt: { path: "a.md" }, check: { onPass: { complete: true } } } },
        }),
      ).toEqual(["SR-LOAD-007 $.basePath"]);
    },
  );
});

describe("prompt names that could leave the prompts folder", () => {
  it("rejects C3L segments with separators or dot segments, in both dialects", () => {
    expect(
      codesAndPaths({
        c1: "../steps",
        entryStep: "initial.a",
        steps: { "initial.a": gateStep("initial.a", { c3: "a/b", edition: ".." }) },
      }),
    ).toEqual([
      "SR-LOAD-007 $.c1",
      'SR-LOAD-007 $.steps["initial.a"].c3',
      'SR-LOAD-007 $.steps["initial.a"].edition',
    ]);
    expect(
      codesAndPaths({
        entryStep: "s_1",
        steps: {
          s_1: {
            prompt: { c2: "x", c3: "y", adaptation: "..\\up" },
            check: { onPass: { complete: true }, prompt: { path: "../outside.md" } },
          },
        },
      }),
    ).toEqual([
      "SR-LOAD-007 $.steps.s_1.prompt.adaptation",
      "SR-LOAD-007 $.steps.s_1.check.prompt.path",
    ]);
  });

  it("rejects a path template that climbs out", () => {
    expect(
      codesAndPaths({
        pathTemplate: "../{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md",
        entryStep: "initial.a",
        steps: { "initial.a": gateStep("initial.a") },
      }),
    ).toEqual(["SR-LOAD-007 $.pathTemplate"]);
  });
});

describe("dialect detection", () => {
  it.each([
    [{ steps: { s_1: { prompt: { path: "a.md" } } } }, "check"],
    [{ steps: { "initial.a": { c2: "initial" } } }, "gate"],
    [{ basePath: "prompts", steps: {} }, "check"],
    [{ steps: {} }, "gate"],
    [{}, "gate"],
    [{ steps: { a: { name: "x" } } }, "gate"],
  ])("%j is the %s dialect", (raw, dialect) => {
    expect(detectRegistryDialect(raw).dialect).toBe(dialect);
  });

  it("follows the majority of steps and reports a mix at the minority step", () => {
    const detection = detectRegistryDialect({
      steps: {
        a: { prompt: { path: "a.md" } },
        b: { prompt: { path: "b.md" } },
        c: { c2: "initial", c3: "x" },
      },
    });
    expect(detection).toEqual({
      dialect: "check",
      mixed: { checkStep: "a", checkKey: "prompt", gateStep: "c", gateKey: "c2" },
    });
  });
});

describe("whole-file reporting", () => {
  it("reports every problem of the file at once, with file and path", () => {
    const found = problems({
      version: 2,
      entryStep: "initial.a",
      steps: {
        "initial.a": gateStep("initial.a", {
          usesStdin: "no",
          structuredGate: {
            allowedIntents: ["next", "finished"],
            intentSchemaRef: "properties/next",
            intentField: "next_action.action",
            failFast: "yes",
          },
          transitions: { next: { target: "initial.b" }, handoff: {} },
          outputSchemaRef: { file: "a.schema.json", schema: "initial.a" },
        }),
        "closure.b": 7,
      },
    });
    expect(found.map((problem) => `${problem.code} ${problem.path}`)).toEqual([
      "SR-LOAD-005 $.version",
      'SR-LOAD-005 $.steps["initial.a"].usesStdin',
      'SR-LOAD-005 $.steps["initial.a"].structuredGate.failFast',
      'SR-INTENT-002 $.steps["initial.a"].structuredGate.allowedIntents[1]',
      'SR-LOAD-005 $.steps["initial.a"].transitions.handoff',
      'SR-LOAD-005 $.steps["closure.b"]',
      'SR-INTENT-003 $.steps["initial.a"].structuredGate.intentSchemaRef',
      'SR-TRANS-001 $.steps["initial.a"].transitions.next.target',
    ]);
    for (const problem of found) {
      expect(problem.file).toBe("steps_registry.json");
      expect(problem.severity).toBe("error");
      expect(problem.hint).toBeTruthy();
    }
  });

  it("rejects a value that is not an object without throwing", () => {
    for (const raw of [null, 3, "registry", [], undefined]) {
      expect(codesAndPaths(raw)).toContain("SR-LOAD-005 $");
    }
  });
});
