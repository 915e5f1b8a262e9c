import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { installSimpleFakeGh, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "../agents.test-helper.ts";
import { loadAgentDefinition } from "../run/agent-location.ts";
import type { RunnerOptions, RunOptions } from "../run/run-options.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunResult } from "../run-result.ts";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 11 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const target = (step: string | null) => ({ target: step });

/** One work step that commits `note.txt` through Bash, then a closure step that closes. */
const committer: TestAgentSpec = {
  name: "wt",
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next", "abort"],
      transitions: { next: target("closure.done") },
    },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("initial.work") },
    },
  },
};

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t.invalid",
};

function commitReply(text: string) {
  return {
    kind: "message" as const,
    content: [
      {
        type: "tool_use" as const,
        id: "toolu_wt1",
        name: "Bash",
        input: { command: `echo '${text}' > note.txt && git add note.txt && git commit -qm note` },
      },
    ],
  };
}

/** A bare repository as the sample repository's `origin`. */
function withOrigin(repo: string): string {
  const bare = path.join(tempDirForFile("climpt-origin-"), "origin.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
  git(repo, "remote", "add", "origin", bare);
  git(repo, "push", "-q", "origin", "main");
  return bare;
}

async function runCommitter(
  repo: string,
  runOptions: Partial<RunOptions>,
  runnerOptions: Partial<RunnerOptions> = {},
  onEvent?: (event: RunEvent) => void,
): Promise<{ result: RunResult; cwd: string; tools: string[] }> {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(commitReply("from the run"), intentReply("next"), intentReply("closing"));
  const loaded = await loadAgentDefinition(writeTestAgent(committer));
  let cwd = "";
  // What the commit's Bash call returned: a test that finds no commit says why.
  const tools: string[] = [];
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    onEvent: (event) => {
      if (event.type === "run_start") cwd = event.cwd;
      if (event.type === "tool_result") tools.push(event.result.content);
      onEvent?.(event);
    },
    env: GIT_IDENTITY,
    ...runnerOptions,
  }).run({ cwd: repo, worktree: true, ...runOptions });
  return { result, cwd, tools };
}

const branchExists = (repo: string, branch: string): boolean =>
  git(repo, "branch", "--list", branch) !== "";

describe("worktree finish: after a successful run", () => {
  it("merges the run's branch back into the base branch, removes the worktree and the branch", async () => {
    const repo = makeSampleRepo();
    const before = git(repo, "rev-parse", "main");
    const { result, cwd } = await runCommitter(repo, {});
    expect(result.error).toBeUndefined();
    const branch = `climpt/wt/${result.runId}`;
    expect(result.worktree).toEqual({
      path: cwd,
      branch,
      baseBranch: "main",
      merged: true,
      commits: 1,
      pushed: null,
      pr: null,
      removed: true,
    });
    // A merge commit on main, whose second parent is the run's commit; the file is checked out.
    expect(git(repo, "log", "--format=%s", "-1", "main")).toBe(
      `Merge branch '${branch}' into main`,
    );
    expect(git(repo, "rev-parse", "main^1")).toBe(before);
    expect(git(repo, "log", "--format=%s", "-1", "main^2")).toBe("note");
    expect(readFileSync(path.join(repo, "note.txt"), "utf8")).toBe("from the run\n");
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(existsSync(cwd)).toBe(false);
    expect(branchExists(repo, branch)).toBe(false);
  });

  it("--no-merge keeps the branch with the work and leaves the base branch alone", async () => {
    const repo = makeSampleRepo();
    const before = git(repo, "rev-parse", "main");
    const { result, cwd } = await runCommitter(repo, { worktreeOptions: { merge: false } });
    expect(result.success).toBe(true);
    const branch = `climpt/wt/${result.runId}`;
    expect(result.worktree).toMatchObject({ merged: false, commits: 0, removed: true });
    expect(git(repo, "rev-parse", "main")).toBe(before);
    expect(git(repo, "log", "--format=%s", "-1", branch)).toBe("note");
    expect(existsSync(cwd)).toBe(false);
  });

  it("--branch and --base-branch: the run's branch gets that name, and a base checked out nowhere is merged without a working tree", async () => {
    const repo = makeSampleRepo();
    git(repo, "branch", "develop");
    const main = git(repo, "rev-parse", "main");
    const { result } = await runCommitter(repo, {
      worktreeOptions: { branch: "issue-42", baseBranch: "develop" },
    });
    expect(result.error).toBeUndefined();
    expect(result.worktree).toMatchObject({
      branch: "issue-42",
      baseBranch: "develop",
      merged: true,
    });
    expect(git(repo, "log", "--format=%s", "-1", "develop")).toBe(
      "Merge branch 'issue-42' into develop",
    );
    expect(git(repo, "show", "develop:note.txt")).toBe("from the run");
    // main, the repository's checked-out branch, and its working tree are untouched.
    expect(git(repo, "rev-parse", "main")).toBe(main);
    expect(existsSync(path.join(repo, "note.txt"))).toBe(false);
    expect(branchExists(repo, "issue-42")).toBe(false);
  });

  it("--push pushes the merged base branch to the remote", async () => {
    const repo = makeSampleRepo();
    const bare = withOrigin(repo);
    const { result } = await runCommitter(repo, { worktreeOptions: { push: true } });
    expect(result.error).toBeUndefined();
    expect(result.worktree).toMatchObject({ merged: true, pushed: "origin/main" });
    expect(
      execFileSync("git", ["--git-dir", bare, "rev-parse", "main"], { encoding: "utf8" }).trim(),
    ).toBe(git(repo, "rev-parse", "main"));
  });

  it("--create-pr pushes the branch and opens a pull request with gh, instead of merging", async () => {
    const repo = makeSampleRepo();
    const bare = withOrigin(repo);
    const gh = installSimpleFakeGh();
    const before = git(repo, "rev-parse", "main");
    const { result, tools } = await runCommitter(
      repo,
      { worktreeOptions: { createPr: true, prTarget: "main" } },
      { ghCommand: gh.gh },
    );
    expect(result.error).toBeUndefined();
    expect(tools).toEqual(["(no output)\n[exit code 0]"]);
    const branch = `climpt/wt/${result.runId}`;
    expect(result.worktree).toMatchObject({
      merged: false,
      pushed: `origin/${branch}`,
      pr: { url: "https://github.invalid/pull/1", base: "main" },
      removed: true,
    });
    expect(gh.state().pullRequests).toEqual({
      "1": { title: `wt: ${branch}`, state: "OPEN", head: branch, base: "main" },
    });
    expect(
      execFileSync("git", ["--git-dir", bare, "log", "--format=%s", "-1", branch], {
        encoding: "utf8",
      }).trim(),
    ).toBe("note");
    expect(git(repo, "rev-parse", "main")).toBe(before);
    expect(branchExists(repo, branch)).toBe(true);
  });
});

describe("worktree finish: what stops it", () => {
  it("a merge conflict is a coded failure: the base is unchanged, the worktree and the branch are kept", async () => {
    const repo = makeSampleRepo();
    let mainAfterConflict = "";
    const { result, cwd } = await runCommitter(repo, {}, {}, (event) => {
      // While the run works, main changes the same file: the two sides conflict.
      if (event.type === "run_start") {
        writeFileSync(path.join(repo, "note.txt"), "from main\n");
        git(repo, "add", "note.txt");
        git(repo, "commit", "-qm", "main's note");
        mainAfterConflict = git(repo, "rev-parse", "main");
      }
    });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-WORKTREE-003");
    expect(result.error?.message).toContain("note.txt");
    expect(result.error?.hint).toContain("git merge --no-ff");
    expect(result.resumable).toBe(false);
    const branch = `climpt/wt/${result.runId}`;
    expect(result.worktree).toMatchObject({ branch, merged: false, removed: false });
    // Never half-merged: main where it was, no merge in progress, a clean tree.
    expect(git(repo, "rev-parse", "main")).toBe(mainAfterConflict);
    expect(existsSync(path.join(repo, ".git", "MERGE_HEAD"))).toBe(false);
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(readFileSync(path.join(repo, "note.txt"), "utf8")).toBe("from main\n");
    expect(existsSync(cwd)).toBe(true);
    expect(git(repo, "log", "--format=%s", "-1", branch)).toBe("note");
  });

  it("a failed push is a coded failure that keeps the worktree", async () => {
    const repo = makeSampleRepo();
    git(repo, "remote", "add", "origin", path.join(tmpdir(), "climpt-no-such-remote.git"));
    const { result, cwd } = await runCommitter(repo, { worktreeOptions: { push: true } });
    expect(result.error?.code).toBe("RUN-WORKTREE-005");
    expect(result.worktree).toMatchObject({ merged: true, pushed: null, removed: false });
    expect(existsSync(cwd)).toBe(true);
  });
});

describe("worktree: a run that fails before its first step leaves none behind", () => {
  it("stopped before the first model call: worktree and branch removed, the run not resumable", async () => {
    const repo = makeSampleRepo();
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    const loaded = await loadAgentDefinition(writeTestAgent(committer));
    const controller = new AbortController();
    controller.abort();
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    }).run({ cwd: repo, worktree: true, signal: controller.signal });
    expect(result.error?.code).toBe("AGENT_INTERRUPTED");
    expect(fake.messageRequests()).toHaveLength(0);
    expect(result.worktree).toMatchObject({ removed: true });
    expect(result.resumable).toBe(false);
    expect(existsSync(result.worktree?.path ?? "")).toBe(false);
    expect(git(repo, "worktree", "list")).not.toContain("climpt-worktrees");
    expect(git(repo, "branch", "--list", "climpt/*")).toBe("");
  });

  it("setup that throws after the worktree was made (a journal that cannot be created) removes it", async () => {
    const repo = makeSampleRepo();
    const notAFolder = path.join(tempDirForFile("climpt-file-"), "journal");
    writeFileSync(notAFolder, "a file where the journal folder would go");
    const loaded = await loadAgentDefinition(writeTestAgent(committer));
    await expect(
      new StepFlowRunner(loaded, {
        modelClient: createAnthropicClient({
          apiKey: "sk-test-key",
          baseURL: "http://127.0.0.1:9",
        }),
        journalDir: path.join(notAFolder, "logs"),
      }).run({ cwd: repo, worktree: true }),
    ).rejects.toThrow();
    expect(git(repo, "worktree", "list")).not.toContain("climpt-worktrees");
    expect(git(repo, "branch", "--list", "climpt/*")).toBe("");
  });

  it("a failure after the model was asked keeps the worktree for resume", async () => {
    const repo = makeSampleRepo();
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(intentReply("abort"));
    const loaded = await loadAgentDefinition(writeTestAgent(committer));
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    }).run({ cwd: repo, worktree: true });
    expect(result.error?.code).toBe("AGENT_ABORTED");
    expect(result.worktree).toMatchObject({ removed: false, merged: false });
    expect(existsSync(result.worktree?.path ?? "")).toBe(true);
  });
});
