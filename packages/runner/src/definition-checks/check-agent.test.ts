import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import type { Problem } from "@climpt/model";
import {
  type AgentFolderFiles,
  demoAgent,
  type JsonRecord,
  removeAgentFolders,
  writeAgentFolder,
} from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { checkAgent, hasCheckErrors } from "./check-agent.ts";

afterAll(removeAgentFolders);

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "climpt-test",
  GIT_AUTHOR_EMAIL: "test@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt-test",
  GIT_COMMITTER_EMAIL: "test@climpt.invalid",
};

/** The demo agent with every prompt file it needs, each using only what is supplied. */
function completeAgent(): AgentFolderFiles {
  const files = demoAgent();
  // Its repeat loops are meant to be capped by the run limit (no SR-FLOW-005).
  (files.agent as JsonRecord).limits = { maxIterations: 20 };
  files.raw = {
    "prompts/system.md": "You fix issues.\n",
    "prompts/steps/initial/issue/f_default.md": "Issue {uv-issue}.\n",
    "prompts/steps/continuation/issue/f_default.md": "Plan: {uv-initial_issue_plan}\n",
    "prompts/steps/closure/issue/f_default.md": "Iteration {uv-iteration}: finish.\n",
    "prompts/steps/retry/issue/f_failed_git-dirty.md": "Commit {{changedFiles}}.\n",
  };
  return files;
}

function codes(problems: readonly Problem[]): string[] {
  return problems.map((issue) => `${issue.severity} ${issue.code}`);
}

async function check(files: AgentFolderFiles, options: Parameters<typeof checkAgent>[1] = {}) {
  const dir = await writeAgentFolder(files);
  const { problems, findings } = await checkAgent(dir, options);
  return { dir, problems, findings };
}

function steps(files: AgentFolderFiles): Record<string, JsonRecord> {
  return (files.registry as { steps: Record<string, JsonRecord> }).steps;
}

describe("checkAgent: the prompts a run can send", () => {
  it("finds nothing in a definition whose every prompt is supplied", async () => {
    const result = await check(completeAgent());
    expect([...result.problems, ...result.findings]).toEqual([]);
    expect(hasCheckErrors(result)).toBe(false);
  });

  it("reports a misspelt parameter placeholder with the parameter and its real flag", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/steps/initial/issue/f_default.md"] =
      "Issue {uv-isue}.\nAgain {uv-issue_number}.\n";
    const { dir, problems } = await check(files);
    const file = path.join(dir, "prompts/steps/initial/issue/f_default.md");
    expect(problems).toEqual([
      expect.objectContaining({
        code: "PR-RESOLVE-005",
        severity: "error",
        file,
        path: "line 1",
        message:
          'The prompt of step "initial.issue" uses {uv-isue}, which no parameter, runtime variable or handoff value supplies.',
      }),
      expect.objectContaining({ code: "PR-RESOLVE-005", severity: "error", path: "line 2" }),
    ]);
    expect(problems[0]?.hint).toMatch(/^Did you mean \{uv-issue\}\? \(parameter issue, --issue\)/);
    expect(problems[1]?.hint).toMatch(/^Did you mean \{uv-issue\}\?/);
    // No hint ever names a flag that does not exist.
    expect(problems.map((issue) => issue.hint).join(" ")).not.toMatch(/--isue|--issue_number/);
  });

  it("offers the closest handoff name for a misspelt one, and leaves undeclared keys to flow analysis", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/steps/closure/issue/f_default.md"] =
      "Plan: {uv-initial_isue_plan}\nNotes: {uv-initial_issue_notes}\n";
    const { problems, findings } = await check(files);
    expect(codes(problems)).toEqual(["error PR-RESOLVE-005"]);
    expect(problems[0]?.hint).toMatch(
      /^Did you mean \{uv-initial_issue_plan\}\? \(handed off by step "initial.issue"\)/,
    );
    expect(findings.map((finding) => finding.code)).toEqual(["SR-FLOW-006"]);
  });

  it("checks retry prompts and check prompts, not only step prompts", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/steps/retry/issue/f_failed_git-dirty.md"] =
      "Issue {uv-isue}: commit {{changedFiles}}.\n";
    const { dir, problems } = await check(files);
    expect(problems).toEqual([
      expect.objectContaining({
        code: "PR-RESOLVE-005",
        file: path.join(dir, "prompts/steps/retry/issue/f_failed_git-dirty.md"),
        message: expect.stringContaining(
          'retry prompt of failure pattern "git-dirty" uses {uv-isue}',
        ),
      }),
    ]);
  });

  it("checks the built-in template a step falls back to", async () => {
    const files = completeAgent();
    const raw = files.raw as Record<string, string>;
    delete raw["prompts/steps/initial/issue/f_default.md"];
    steps(files)["initial.issue"] = {
      ...steps(files)["initial.issue"],
      fallbackKey: "initial_issue",
    };
    (files.agent as { parameters: JsonRecord }).parameters = {
      ticket: { type: "number", required: true },
    };
    steps(files)["initial.issue"] = { ...steps(files)["initial.issue"], uvVariables: ["ticket"] };
    steps(files)["continuation.issue"] = {
      ...steps(files)["continuation.issue"],
      uvVariables: ["ticket", "initial_issue_plan"],
    };
    const { problems } = await check(files);
    expect(problems).toEqual([
      expect.objectContaining({
        code: "PR-RESOLVE-005",
        message: expect.stringContaining(
          'built-in template "initial_issue" (fallbackKey of step "initial.issue") uses {uv-issue}',
        ),
      }),
    ]);
  });

  it("makes a placeholder in a step the entry cannot reach a warning that says why", async () => {
    const files = completeAgent();
    steps(files)["initial.other"] = {
      stepId: "initial.other",
      c2: "initial",
      c3: "other",
      outputSchemaRef: { file: "issue.schema.json", schema: "initial.issue" },
      structuredGate: {
        allowedIntents: ["next", "repeat"],
        intentSchemaRef: "#/properties/next_action/properties/action",
        intentField: "next_action.action",
      },
      transitions: { next: { target: "closure.issue" }, repeat: { target: "initial.other" } },
    };
    (files.raw as Record<string, string>)["prompts/steps/initial/other/f_default.md"] =
      "Project {uv-project}\n";
    const { problems } = await check(files);
    expect(codes(problems)).toEqual(["warning PR-RESOLVE-005"]);
    expect(problems[0]?.message).toContain(
      'Step "initial.other" is not reachable from the entry step "initial.issue"',
    );
  });

  it("knows which runtime values a verdict sets", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/steps/closure/issue/f_default.md"] =
      "Say {uv-completion_keyword} when done ({uv-remaining} left).\n";
    const { problems } = await check(files);
    expect(problems).toEqual([
      expect.objectContaining({
        code: "PR-RESOLVE-005",
        severity: "error",
        message: expect.stringContaining(
          'the runner sets "completion_keyword" only for a detect:keyword verdict',
        ),
      }),
    ]);
  });

  it("tells an optional parameter without a default apart: a warning to validate, an error for a run without it", async () => {
    const files = completeAgent();
    (files.agent as { parameters: JsonRecord }).parameters = {
      issue: { type: "number", required: true },
      label: { type: "string", cli: "--label" },
    };
    (files.raw as Record<string, string>)["prompts/steps/initial/issue/f_default.md"] =
      "Issue {uv-issue} ({uv-label}).\n";
    const validated = await check(files);
    expect(codes(validated.problems)).toEqual(["warning PR-RESOLVE-005"]);
    expect(validated.problems[0]?.message).toContain("only when --label is given");
    const dir = validated.dir;
    const without = await checkAgent(dir, { args: { issue: 1 } });
    expect(codes(without.problems)).toEqual(["error PR-RESOLVE-005"]);
    expect(without.problems[0]?.hint).toBe(
      "Pass --label <value>, or give the parameter a default in agent.json.",
    );
    const given = await checkAgent(dir, { args: { issue: 1, label: "bug" } });
    expect(given.problems).toEqual([]);
  });

  it("reports a declared uvVariable the run leaves empty before the run starts", async () => {
    const files = completeAgent();
    (files.agent as { parameters: JsonRecord }).parameters = {
      issue: { type: "number", required: false },
    };
    const { dir } = await check(files);
    const run = await checkAgent(dir, { args: {} });
    expect(run.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: "PR-RESOLVE-003",
          severity: "error",
          path: '$.steps["initial.issue"].uvVariables[0]',
        }),
      ]),
    );
  });
});

describe("checkAgent: the system prompt and retry prompt files", () => {
  it("refuses a misspelt systemPromptPath and names the file it probably means", async () => {
    const files = completeAgent();
    (files.agent as JsonRecord).runner = {
      verdict: { type: "poll:state" },
      flow: { systemPromptPath: "prompts/sytem.md" },
    };
    const { dir, problems } = await check(files);
    expect(problems).toEqual([
      expect.objectContaining({
        code: "PR-C3L-012",
        severity: "error",
        file: path.join(dir, "agent.json"),
        path: "$.runner.flow.systemPromptPath",
      }),
    ]);
    expect(problems[0]?.hint).toMatch(/^Did you mean prompts\/system\.md\?/);
  });

  it("refuses a missing default system prompt", async () => {
    const files = completeAgent();
    delete (files.raw as Record<string, string>)["prompts/system.md"];
    const { problems } = await check(files);
    expect(codes(problems)).toEqual(["error PR-C3L-012"]);
  });

  it("warns that the system prompt is sent as written when it holds a placeholder", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/system.md"] = "You fix issue {uv-issue}.\n";
    const { problems } = await check(files);
    expect(codes(problems)).toEqual(["warning PR-RESOLVE-007"]);
  });

  it("refuses a misnamed retry prompt, even when a more general one would be sent", async () => {
    for (const general of [false, true]) {
      const files = completeAgent();
      const raw = files.raw as Record<string, string>;
      delete raw["prompts/steps/retry/issue/f_failed_git-dirty.md"];
      raw["prompts/steps/retry/issue/f_failed_git-dirt.md"] = "Commit.\n";
      if (general) raw["prompts/steps/retry/issue/f_failed.md"] = "Fix it.\n";
      const { dir, problems } = await check(files);
      expect(codes(problems)).toEqual(["error PR-C3L-013"]);
      expect(problems[0]).toMatchObject({
        file: path.join(dir, "steps_registry.json"),
        path: '$.failurePatterns["git-dirty"]',
      });
      expect(problems[0]?.hint).toContain(
        `Did you mean ${path.join(dir, "prompts/steps/retry/issue/f_failed_git-dirt.md")}?`,
      );
    }
  });

  it("accepts the general f_failed.md when nothing looks like a misnamed pattern file", async () => {
    const files = completeAgent();
    const raw = files.raw as Record<string, string>;
    delete raw["prompts/steps/retry/issue/f_failed_git-dirty.md"];
    raw["prompts/steps/retry/issue/f_failed.md"] = "Fix {{output}}.\n";
    const { problems } = await check(files);
    expect(problems).toEqual([]);
  });

  it("warns when only the built-in retry text is left, unless the pattern asks for it", async () => {
    const files = completeAgent();
    delete (files.raw as Record<string, string>)["prompts/steps/retry/issue/f_failed_git-dirty.md"];
    const { problems } = await check(files);
    expect(codes(problems)).toEqual(["warning PR-C3L-013"]);
    expect(problems[0]?.message).toContain("the built-in retry text is sent");

    const patterns = (files.registry as { failurePatterns: Record<string, JsonRecord> })
      .failurePatterns;
    patterns["git-dirty"] = { ...patterns["git-dirty"], fallback: "built-in" };
    expect((await check(files)).problems).toEqual([]);
  });

  it("reports a retry template's syntax error before any run", async () => {
    const files = completeAgent();
    (files.raw as Record<string, string>)["prompts/steps/retry/issue/f_failed_git-dirty.md"] =
      "{{#each changedFiles}}- {{this}}\n";
    const { problems } = await check(files);
    expect(codes(problems)).toEqual(["error PR-RESOLVE-006"]);
  });
});

describe("checkAgent: the working folder", () => {
  it("refuses, for a run, a git validator outside a git repository; warns when validating", async () => {
    const { dir } = await check(completeAgent());
    const outside = path.join(path.dirname(dir), "work");
    await mkdir(outside);
    const run = await checkAgent(dir, { cwd: outside, purpose: "run" });
    expect(run.problems).toEqual([
      expect.objectContaining({
        code: "RUN-CWD-002",
        severity: "error",
        path: '$.validators["git-clean"].command',
        message: `Validator "git-clean" runs git (\`git status --porcelain\`), but ${outside} is not inside a git repository, so it could never pass.`,
      }),
    ]);
    const validated = await checkAgent(dir, { cwd: outside });
    expect(codes(validated.problems)).toEqual(["warning RUN-CWD-002"]);
    await mkdir(path.join(outside, ".git"));
    expect((await checkAgent(dir, { cwd: path.join(outside), purpose: "run" })).problems).toEqual(
      [],
    );
    await rm(path.join(outside, ".git"), { recursive: true });
  });

  it("warns that git-clean would see the agent folder while it is not committed", async () => {
    const { dir } = await check(completeAgent());
    const repo = path.dirname(dir);
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        env: { ...process.env, ...GIT_IDENTITY },
        stdio: "ignore",
      });
    git("init", "-q");
    const untracked = await checkAgent(dir, { cwd: repo, purpose: "run" });
    expect(codes(untracked.problems)).toEqual(["warning RUN-CWD-003"]);
    expect(untracked.problems[0]?.hint).toContain(`git add ${dir}`);
    git("add", "-A");
    git("commit", "-qm", "agent");
    expect((await checkAgent(dir, { cwd: repo, purpose: "run" })).problems).toEqual([]);
    await rm(path.join(repo, ".git"), { recursive: true });
  });

  it("names the untracked files git-clean would see, node_modules/ first among them, and the .gitignore fix", async () => {
    const { dir } = await check(completeAgent());
    const repo = path.dirname(dir);
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        env: { ...process.env, ...GIT_IDENTITY },
        stdio: "ignore",
      });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "agent");
    await mkdir(path.join(repo, "node_modules", "left-pad"), { recursive: true });
    await writeFile(path.join(repo, "node_modules", "left-pad", "index.js"), "x\n");
    await writeFile(path.join(repo, "notes.txt"), "mine\n");
    for (const purpose of ["run", "validate"] as const) {
      const { problems } = await checkAgent(dir, { cwd: repo, purpose });
      expect(problems).toEqual([
        expect.objectContaining({
          code: "RUN-CWD-004",
          severity: "warning",
          path: '$.validators["git-clean"].command',
          message: `Validator "git-clean" (\`git status --porcelain\`) would see 2 untracked paths in ${repo} that are not the model's work: node_modules/ (a dependency or build folder), notes.txt. The run would be refused at its close-out until they are gone, and the retry prompt never asks the model to commit dependency or build folders.`,
          hint: "Before the run, add node_modules/ to .gitignore (printf '%s\\n' 'node_modules/' >> .gitignore) and commit the .gitignore; commit the other files, or add them to .gitignore too.",
        }),
      ]);
    }
    await writeFile(path.join(repo, ".gitignore"), "node_modules/\nnotes.txt\n");
    git("add", ".gitignore");
    git("commit", "-qm", "ignore");
    expect((await checkAgent(dir, { cwd: repo, purpose: "run" })).problems).toEqual([]);
    await rm(path.join(repo, ".git"), { recursive: true });
  });
});
