import { describe, expect, it } from "vitest";
import { issuesOf, okValue, step, withSteps } from "./c3l-resolver.test-helper.ts";
import { createMemoryPromptSource } from "./prompt-source.ts";
import { resolveStepPrompt } from "./resolve-step-prompt.ts";

const initial = step("initial.issue", {
  uvVariables: ["issue"],
  fallbackKey: "initial_issue",
  handoff: [{ key: "plan", path: "analysis.plan" }],
});
const closure = step("closure.issue", { kind: "closure", fallbackKey: "issue_closure_default" });
const reg = withSteps(initial, closure);

const files = {
  "steps/initial/issue/f_default.md":
    "---\ntitle: start\n---\n# Issue {uv-issue} (iteration {uv-iteration})\nPlan: {uv-initial_issue_analysis_plan}\n",
  "steps/closure/issue/f_default.md": "Close #{uv-issue}. Plan was {uv-initial_issue_plan}.",
  "steps/closure/issue/f_failed_git-dirty.md":
    "Issue {uv-issue}: the tree is dirty.\n{{#each changedFiles}}- {{this}}\n{{else}}(no list)\n{{/each}}",
  "steps/retry/issue/f_failed.md": "Retry for #{uv-issue}: {{summary}}",
};
const source = createMemoryPromptSource(files);
const channels = {
  parameters: { issue: 123 },
  runtime: { iteration: 2 },
  handoff: { "initial.issue": { plan: { steps: ["a"] } } },
};

describe("resolveStepPrompt", () => {
  it("resolves the file, strips frontmatter and fills UV from every channel", async () => {
    const prompt = okValue(
      await resolveStepPrompt({ registry: reg, step: "initial.issue", source, channels }),
    );
    expect(prompt.text).toBe('# Issue 123 (iteration 2)\nPlan: {\n  "steps": [\n    "a"\n  ]\n}\n');
    expect(prompt.source).toMatchObject({
      kind: "file",
      relativePath: "steps/initial/issue/f_default.md",
    });
    expect(prompt.variables).toEqual({
      issue: { value: 123, origin: { channel: "parameters", name: "issue" } },
      iteration: { value: 2, origin: { channel: "runtime", name: "iteration" } },
      initial_issue_analysis_plan: {
        value: { steps: ["a"] },
        origin: { channel: "handoff", stepId: "initial.issue", key: "plan", via: "path" },
      },
    });
    expect(prompt.missingParams).toEqual([]);
  });

  it("names handoff values by their full path on every resolution with one registry", async () => {
    // The registry's handoff paths are computed once per registry object and reused.
    for (const iteration of [1, 2, 3]) {
      const prompt = okValue(
        await resolveStepPrompt({
          registry: reg,
          step: "initial.issue",
          source,
          channels: { ...channels, runtime: { iteration } },
        }),
      );
      expect(prompt.variables.initial_issue_analysis_plan?.value).toEqual({ steps: ["a"] });
    }
  });

  it("accepts the step object as well as its id", async () => {
    const prompt = okValue(
      await resolveStepPrompt({ registry: reg, step: closure, source, channels }),
    );
    expect(prompt.text).toBe('Close #123. Plan was {\n  "steps": [\n    "a"\n  ]\n}.');
  });

  it("resolves another reference (a check prompt) with the step's variables", async () => {
    const checked = step("s_b2c1", {
      prompt: { kind: "c3l", c1: "steps", c2: "phase", c3: "implement", edition: "default" },
      check: {
        prompt: { kind: "c3l", c1: "checks", c2: "step", c3: "implement", edition: "default" },
        onPass: { kind: "complete" },
      },
    });
    const checkSource = createMemoryPromptSource({
      "checks/step/implement/f_default.md": 'Check issue {uv-issue}: reply {"result": "ok|ng"}',
    });
    const prompt = okValue(
      await resolveStepPrompt({
        registry: withSteps(checked),
        step: checked,
        prompt: checked.check?.prompt,
        source: checkSource,
        channels,
      }),
    );
    expect(prompt.text).toBe('Check issue 123: reply {"result": "ok|ng"}');
  });

  it("fails with PR-RESOLVE-001 for an unknown step id", async () => {
    const [issue] = issuesOf(
      await resolveStepPrompt({ registry: reg, step: "initial.nope", source, channels }),
    );
    expect(issue).toMatchObject({ code: "PR-RESOLVE-001", path: '$.steps["initial.nope"]' });
    expect(issue?.hint).toContain("initial.issue");
  });

  it("uses the fallbackKey template, filled, when the file is missing", async () => {
    const prompt = okValue(
      await resolveStepPrompt({
        registry: reg,
        step: "initial.issue",
        source: createMemoryPromptSource({}),
        channels,
      }),
    );
    expect(prompt.source).toEqual({ kind: "fallback", key: "initial_issue" });
    expect(prompt.text).toContain("issue #123");
    expect(prompt.text).not.toContain("{uv-");
  });

  it("fails with PR-C3L-004 instead when fallbacks are not allowed", async () => {
    const [issue] = issuesOf(
      await resolveStepPrompt({
        registry: reg,
        step: "initial.issue",
        source: createMemoryPromptSource({}),
        channels,
        allowFallback: false,
      }),
    );
    expect(issue?.code).toBe("PR-C3L-004");
  });

  it("resolves a failure pattern's retry prompt and renders its params", async () => {
    const prompt = okValue(
      await resolveStepPrompt({
        registry: reg,
        step: "closure.issue",
        source,
        channels,
        override: { edition: "failed", adaptation: "git-dirty" },
        retryParams: { changedFiles: ["src/a.ts", "README.md"] },
      }),
    );
    expect(prompt.text).toBe("Issue 123: the tree is dirty.\n- src/a.ts\n- README.md\n");
    expect(prompt.source).toMatchObject({
      relativePath: "steps/closure/issue/f_failed_git-dirty.md",
    });
  });

  it("falls back from the retry adaptation to the plain edition under the validation step's c2/c3", async () => {
    const prompt = okValue(
      await resolveStepPrompt({
        registry: reg,
        step: "closure.issue",
        source,
        channels,
        override: { edition: "failed", adaptation: "type-error", c2: "retry", c3: "issue" },
        retryParams: { summary: "2 type errors" },
      }),
    );
    expect(prompt.text).toBe("Retry for #123: 2 type errors");
    expect(prompt.tried).toEqual([
      "memory:steps/retry/issue/f_failed_type-error.md",
      "memory:steps/retry/issue/f_failed.md",
    ]);
  });

  it("uses no fallback template for a missing retry variant unless asked to", async () => {
    const input = {
      registry: reg,
      step: "closure.issue",
      source: createMemoryPromptSource({}),
      channels,
      override: { edition: "failed", adaptation: "git-dirty" },
    };
    const [issue] = issuesOf(await resolveStepPrompt(input));
    expect(issue?.code).toBe("PR-C3L-004");
    expect(issue?.message).toContain("f_failed_git-dirty.md");
    const prompt = okValue(await resolveStepPrompt({ ...input, allowFallback: true }));
    expect(prompt.source).toEqual({ kind: "fallback", key: "issue_closure_default" });
  });

  it("never re-reads inserted text: params keep {uv-*} and UV values keep {{…}} literally", async () => {
    const prompt = okValue(
      await resolveStepPrompt({
        registry: reg,
        step: "closure.issue",
        source,
        channels: { ...channels, parameters: { issue: "{{changedFiles}}" } },
        override: { edition: "failed", adaptation: "git-dirty" },
        retryParams: { changedFiles: ["{uv-issue}"] },
      }),
    );
    expect(prompt.text).toBe("Issue {{changedFiles}}: the tree is dirty.\n- {uv-issue}\n");
  });

  it("needs c2 and c3 to build a retry path for a path-referenced step (PR-C3L-011)", async () => {
    const byPath = step("s_a8f3", { prompt: { kind: "path", path: "steps/phase/analyze.md" } });
    const registry = withSteps(byPath);
    const [issue] = issuesOf(
      await resolveStepPrompt({
        registry,
        step: byPath,
        source,
        channels,
        override: { edition: "failed" },
      }),
    );
    expect(issue?.code).toBe("PR-C3L-011");
    const prompt = okValue(
      await resolveStepPrompt({
        registry,
        step: byPath,
        source,
        channels,
        override: { edition: "failed", c2: "retry", c3: "issue" },
        retryParams: { summary: "s" },
      }),
    );
    expect(prompt.text).toBe("Retry for #123: s");
  });

  it("fills {input_text} from stdin and requires stdin for usesStdin steps (PR-RESOLVE-004)", async () => {
    const piped = step("initial.piped", { usesStdin: true });
    const registry = withSteps(piped);
    const stdinSource = createMemoryPromptSource({
      "steps/initial/piped/f_default.md": "Input:\n{input_text}",
    });
    const prompt = okValue(
      await resolveStepPrompt({
        registry,
        step: piped,
        source: stdinSource,
        channels: {},
        stdin: "a {uv-x}",
      }),
    );
    expect(prompt.text).toBe("Input:\na {uv-x}");
    const [issue] = issuesOf(
      await resolveStepPrompt({ registry, step: piped, source: stdinSource, channels: {} }),
    );
    expect(issue).toMatchObject({
      code: "PR-RESOLVE-004",
      path: '$.steps["initial.piped"].usesStdin',
    });
  });

  it("reports every problem of one prompt at once, with file lines", async () => {
    const broken = step("initial.broken", { usesStdin: true, uvVariables: ["issue", "topic"] });
    const registry = withSteps(broken);
    const brokenSource = createMemoryPromptSource(
      { "steps/initial/broken/f_failed.md": "---\na: 1\n---\n{uv-issue}\n{uv-nope}\n{{#each x}}" },
      { label: "/agent/prompts" },
    );
    const issues = issuesOf(
      await resolveStepPrompt({
        registry,
        step: broken,
        source: brokenSource,
        channels: {},
        override: { edition: "failed" },
        retryParams: {},
      }),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["PR-RESOLVE-004", '$.steps["initial.broken"].usesStdin'],
      ["PR-RESOLVE-003", "line 4"],
      ["PR-RESOLVE-003", '$.steps["initial.broken"].uvVariables[1]'],
      ["PR-RESOLVE-005", "line 5"],
      ["PR-RESOLVE-006", "line 6, column 1"],
    ]);
    expect(issues[1]?.file).toBe("/agent/prompts/steps/initial/broken/f_failed.md");
  });

  it("names a fallback template as the file in UV problems", async () => {
    const needsMore = step("initial.issue", { fallbackKey: "initial_issue" });
    const [issue] = issuesOf(
      await resolveStepPrompt({
        registry: withSteps(needsMore),
        step: needsMore,
        source: createMemoryPromptSource({}),
        channels: {},
      }),
    );
    expect(issue).toMatchObject({
      code: "PR-RESOLVE-005",
      file: 'fallback template "initial_issue"',
    });
  });

  it("returns channel clashes so a runner can warn about them", async () => {
    const prompt = okValue(
      await resolveStepPrompt({
        registry: reg,
        step: "initial.issue",
        source,
        channels: { ...channels, parameters: { issue: 1, iteration: 50 } },
      }),
    );
    expect(prompt.text).toContain("(iteration 2)");
    expect(prompt.shadowed.map((s) => [s.name, s.kept.channel, s.dropped.channel])).toEqual([
      ["iteration", "runtime", "parameters"],
    ]);
  });
});
