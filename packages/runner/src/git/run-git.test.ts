/**
 * Issue 26's git attacks through a whole run (a scripted model issuing Bash calls, the real
 * sandbox, real git): the host git a run runs afterwards — the worktree finish's merge, the
 * user's own git — runs nothing the model planted, no ref but the run's branch moves, and the
 * repository passes `git fsck`. And the run's own guard: git metadata recorded at the start,
 * a change made outside the sandbox ends the run (RUN-GIT-001), resumably.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "../agents.test-helper.ts";
import { loadAgentDefinition } from "../run/agent-location.ts";
import type { RunnerOptions, RunOptions } from "../run/run-options.ts";
import type { RunEvent } from "../run-event.ts";
import type { RunResult } from "../run-result.ts";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 15 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const target = (step: string | null) => ({ target: step });

/** The closure step is validated by `git status --porcelain`, a git in the run's working tree. */
const GIT_STATUS_VALIDATION = {
  validators: {
    "git-status": {
      type: "command",
      command: "git status --porcelain",
      successWhen: "exitCode:0",
      failurePattern: "git-broken",
    },
  },
  failurePatterns: {
    "git-broken": { description: "git status failed", edition: "failed", adaptation: "git" },
  },
  validationSteps: {
    "closure.done": {
      stepId: "closure.done",
      c2: "retry",
      c3: "done",
      validationConditions: [{ validator: "git-status" }],
      onFailure: { action: "retry", maxAttempts: 1 },
    },
  },
};

const agentSpec: TestAgentSpec = {
  name: "gitguard",
  registry: GIT_STATUS_VALIDATION,
  prompts: { "steps/retry/done/f_failed_git.md": "git status failed." },
  entryStep: "initial.work",
  steps: {
    "initial.work": {
      intents: ["next", "abort"],
      transitions: { next: target("closure.done"), abort: target(null) },
    },
    "closure.done": {
      intents: ["closing", "repeat"],
      transitions: { closing: target(null), repeat: target("initial.work") },
    },
  },
};

function bashReply(command: string, id = "toolu_git1") {
  return {
    kind: "message" as const,
    content: [{ type: "tool_use" as const, id, name: "Bash", input: { command, timeout: 60_000 } }],
  };
}

/** A copy of the repository's git data whose config runs the payload (fsmonitor and hooks). */
function evilCopy(common: string, payload: string): string {
  return [
    "evil=$PWD/.evil",
    "mkdir -p $evil/hooks",
    `cp -r ${common}/objects ${common}/refs ${common}/HEAD $evil/`,
    `printf '#!/bin/sh\\n${payload}\\n' > $evil/hooks/pre-merge-commit`,
    `cp $evil/hooks/pre-merge-commit $evil/hooks/post-merge; chmod +x $evil/hooks/*`,
    `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "${payload}"\\n\\thooksPath = %s/hooks\\n' "$evil" > $evil/config`,
  ].join("; ");
}

interface Outcome {
  readonly result: RunResult;
  readonly events: RunEvent[];
  readonly requests: number;
}

async function runWith(
  repo: string,
  replies: readonly unknown[],
  runOptions: Partial<RunOptions> = {},
  runnerOptions: Partial<RunnerOptions> = {},
): Promise<Outcome> {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(...(replies as Parameters<typeof fake.enqueue>));
  const loaded = await loadAgentDefinition(writeTestAgent(agentSpec));
  const events: RunEvent[] = [];
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url }),
    ...runnerOptions,
    onEvent: (event) => {
      events.push(event);
      runnerOptions.onEvent?.(event);
    },
  }).run({ cwd: repo, ...runOptions });
  return { result, events, requests: fake.requests.length };
}

/** The repository's refs, read with explicit directories (no file the model wrote is followed). */
function refs(repo: string): string {
  return execFileSync("git", ["for-each-ref", "--format=%(refname) %(objectname)"], {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_DIR: path.join(repo, ".git"),
      GIT_COMMON_DIR: path.join(repo, ".git"),
    },
  });
}

function userGitRuns(cwd: string, ...args: string[]): void {
  try {
    execFileSync("git", args, { cwd, stdio: "ignore" });
  } catch {
    // It ran what it ran.
  }
}

function fsck(repo: string): boolean {
  try {
    execFileSync("git", ["fsck", "--no-progress"], {
      cwd: repo,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_DIR: path.join(repo, ".git"),
        GIT_COMMON_DIR: path.join(repo, ".git"),
      },
    });
    return true;
  } catch {
    return false;
  }
}

function canaryIn(): string {
  return path.join(tempDirForFile("climpt-canary-"), "ran");
}

describe("git attacks through a run", () => {
  it("--worktree --no-merge: update-ref of the base branch and a tag from a failing run moves nothing", async () => {
    const repo = makeSampleRepo();
    git(repo, "tag", "v1");
    // The run's own branch and its own snapshot refs (refs/climpt/<runId>/) are the run's to make.
    const userRefs = (text: string, runId = "") =>
      text
        .replace(/^refs\/heads\/climpt\/.*\n/gm, "")
        .split("\n")
        .filter((line) => runId === "" || !line.startsWith(`refs/climpt/${runId}/`))
        .join("\n");
    const before = userRefs(refs(repo));
    const { result, events } = await runWith(
      repo,
      [
        bashReply(
          "git commit -q --allow-empty -m evil && git update-ref refs/heads/main HEAD && git tag -f v1 HEAD && echo done",
        ),
        intentReply("abort"),
      ],
      { worktree: true, worktreeOptions: { merge: false } },
    );
    expect(result.success).toBe(false);
    expect(userRefs(refs(repo), result.runId)).toBe(before);
    const tool = events.find((event) => event.type === "tool_result");
    expect(tool?.type === "tool_result" && tool.result.content).toContain("TOOL-GIT-001");
    expect(
      events.some((event) => event.type === "notice" && event.message.startsWith("TOOL-GIT-001")),
    ).toBe(true);
    expect(fsck(repo)).toBe(true);
  });

  for (const via of [
    "<gitdir>/commondir",
    "<common>/commondir",
    "the worktree's .git file",
  ] as const) {
    it(`--worktree: fsmonitor and hooks through ${via} never run on the host; the merge goes through`, async () => {
      const repo = makeSampleRepo();
      const canary = canaryIn();
      const payload = `touch ${canary}; false`;
      const common = path.join(repo, ".git");
      const plant =
        via === "the worktree's .git file"
          ? 'echo "gitdir: $evil" > .git'
          : via === "<common>/commondir"
            ? `echo $evil > ${common}/commondir`
            : `for d in ${common}/worktrees/*; do echo $evil > $d/commondir; done`;
      const { result } = await runWith(
        repo,
        [
          bashReply(
            `echo work > work.txt && git add work.txt && git commit -qm work; ${evilCopy(common, payload)}; ${plant}`,
          ),
          intentReply("next"),
          intentReply("closing"),
        ],
        { worktree: true },
      );
      expect(result.error).toBeUndefined();
      expect(result.worktree).toMatchObject({ merged: true, commits: 1, removed: true });
      userGitRuns(repo, "status");
      userGitRuns(repo, "commit", "-q", "--allow-empty", "-m", "the user's");
      expect(existsSync(canary), "the payload ran").toBe(false);
      expect(existsSync(path.join(common, "commondir"))).toBe(false);
      expect(readFileSync(path.join(repo, "work.txt"), "utf8")).toBe("work\n");
      expect(fsck(repo)).toBe(true);
    });
  }

  it("plain mode: the issue's attack (fsmonitor through .git/commondir) leaves nothing to run", async () => {
    const repo = makeSampleRepo();
    const canary = canaryIn();
    const common = path.join(repo, ".git");
    const { result } = await runWith(repo, [
      bashReply(
        `echo work > work.txt && git add work.txt && git commit -qm work; ${evilCopy(common, `touch ${canary}; false`)}; echo $evil > .git/commondir`,
      ),
      intentReply("next"),
      intentReply("closing"),
    ]);
    expect(result.success).toBe(true);
    userGitRuns(repo, "status");
    userGitRuns(repo, "commit", "-q", "--allow-empty", "-m", "the user's");
    expect(existsSync(canary), "the payload ran").toBe(false);
    expect(git(repo, "log", "--format=%s", "-2")).toBe("the user's\nwork");
    expect(fsck(repo)).toBe(true);
  });

  it("a repository whose config includes a file in the working tree is refused before the first model call (GIT-HOST-003)", async () => {
    const repo = makeSampleRepo();
    git(repo, "config", "include.path", "../.shared.gitconfig");
    const outcome = runWith(repo, [bashReply("true"), intentReply("next"), intentReply("closing")]);
    await expect(outcome).rejects.toMatchObject({ code: "GIT-HOST-003" });
  });
});

describe("the run's git guard (RUN-GIT-001)", () => {
  it("a change between the closure step and its validators ends the run before they run", async () => {
    const repo = makeSampleRepo();
    const planted = path.join(repo, ".git", "config.worktree");
    const { result, events } = await runWith(
      repo,
      [intentReply("next"), intentReply("closing")],
      {},
      {
        // After the closure step's model phase (and its check), before the completion chain:
        // what a program step run outside the sandbox could do at that point.
        onEvent: (event) => {
          if (event.type === "gate" && event.stepId === "closure.done") {
            writeFileSync(planted, "[core]\n\tfsmonitor = x\n");
          }
        },
      },
    );
    expect(result.error?.code).toBe("RUN-GIT-001");
    expect(result.error?.message).toContain(
      `config.worktree (its SHA-256) at ${planted} was absent`,
    );
    expect(events.some((event) => event.type === "validator")).toBe(false);
    expect(result.resumable).toBe(true);
  });

  it("records the metadata; a change made outside the sandbox ends the run before any git, resumably", async () => {
    const repo = makeSampleRepo();
    const common = path.join(repo, ".git");
    const planted = path.join(common, "commondir");
    const elsewhere = tempDirForFile("climpt-elsewhere-");
    mkdirSync(path.join(elsewhere, "objects"));
    writeFileSync(path.join(elsewhere, "HEAD"), "ref: refs/heads/main\n");
    const { result, events } = await runWith(
      repo,
      [bashReply("echo work > work.txt && git add work.txt && git commit -qm work")],
      { worktree: true },
      {
        // What an unsandboxed program would do between two tools: the test does it itself.
        onEvent: (event) => {
          if (event.type === "tool_result") writeFileSync(planted, elsewhere);
        },
      },
    );
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-GIT-001");
    expect(result.error?.message).toContain(
      `the commondir file at ${planted} was absent, now "${elsewhere}"`,
    );
    expect(result.error?.hint).toContain("climpt resume");
    expect(result.resumable).toBe(true);
    // No finish ran: the worktree and its branch are kept, the base has no merge.
    expect(result.worktree).toMatchObject({ merged: false, removed: false });
    const start = events.find((event) => event.type === "run_start");
    expect(start?.type === "run_start" && start.git?.metadata.length).toBe(2);

    // Resumed while it is still there: refused before anything runs.
    const resumed = runWith(repo, [], { resume: result.runId });
    await expect(resumed).rejects.toMatchObject({ code: "RUN-GIT-001" });
    rmSync(planted);
    const fixed = await runWith(repo, [intentReply("next"), intentReply("closing")], {
      resume: result.runId,
    });
    expect(fixed.result.success).toBe(true);
    expect(fixed.result.worktree).toMatchObject({ merged: true, removed: true });
    expect(readFileSync(path.join(repo, "work.txt"), "utf8")).toBe("work\n");
  });
});
