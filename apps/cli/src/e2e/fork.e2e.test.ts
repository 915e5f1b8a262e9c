import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { type FakeAnthropic, loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// This file's hang limit (vitest.shared.ts): two demo runs and a fork, about 40 s at load 25.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const AGENT = "examples/agents/fix-bug";
let fake: FakeAnthropic;
const folders: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh git copy of examples/sample-repo in a folder of its own, so the worktrees a fork makes
 * next to it (`../climpt-worktrees`) are removed with it.
 */
function sampleRepo(): string {
  const parent = tempDir("fork");
  folders.push(parent);
  const dir = path.join(parent, "repo");
  mkdirSync(dir);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

const ENV = () => ({
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: "test-key",
  ...GIT_IDENTITY,
});

function journalOf(repo: string, runId: string): string {
  return path.join(repo, "tmp", "climpt", "logs", "fix-bug", `${runId}.jsonl`);
}

describe("climpt fork", () => {
  it("forks the demo run at the implement step with another model and parameter: no request for the earlier steps, the source untouched", async () => {
    const repo = sampleRepo();
    const script = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
    fake.reset();
    fake.enqueue(...script.replies);
    const source = await spawnCli(["run", AGENT, "--cwd", repo, "--issue", "1", "--json"], {
      env: ENV(),
    });
    expect(source.code, source.stderr).toBe(0);
    const sourceId = onlyJson(source.stdout).runId as string;
    const sourceJournal = readFileSync(journalOf(repo, sourceId));
    const sourceRefs = git(repo, "for-each-ref", `refs/climpt/${sourceId}/`);
    const mainBefore = git(repo, "rev-parse", "main");
    expect(sourceRefs.split("\n")).toHaveLength(8); // the start and 7 step ends

    // The fork's model: the replies from the implement step on. The analysis (3 calls) is the
    // source's and must not be asked for.
    fake.reset();
    fake.enqueue(...script.replies.slice(3));
    const forked = await spawnCli(
      [
        "fork",
        sourceId,
        "--agent",
        AGENT,
        "--cwd",
        repo,
        "--at",
        "continuation.implement",
        "--param",
        "issue=42",
        "--model",
        "haiku",
        "--json",
      ],
      { env: ENV() },
    );
    expect(forked.code, forked.stderr).toBe(0);
    const result = onlyJson(forked.stdout);
    expect(result).toMatchObject({ success: true, finalStepId: "closure.fix", iterations: 7 });
    const forkId = result.runId as string;
    expect(forkId).not.toBe(sourceId);

    const requests = fake.messageRequests();
    expect(requests).toHaveLength(script.replies.length - 3);
    expect(fake.pending()).toBe(0);
    const bodies = requests.map((request) => JSON.stringify(request.body));
    expect(bodies.some((body) => body.includes("Step: analyse"))).toBe(false);
    expect(bodies[0]).toContain("implement the fix (issue #42)");
    // The source's analysis reached the implement prompt through the inherited handoff.
    expect(bodies[0]).toContain("Replace each run of non-alphanumeric characters");
    for (const request of requests) {
      expect((request.body as { model?: string } | undefined)?.model).toMatch(/haiku/);
    }

    // The source: journal byte for byte, snapshot refs, the user's branch.
    expect(readFileSync(journalOf(repo, sourceId))).toEqual(sourceJournal);
    expect(git(repo, "for-each-ref", `refs/climpt/${sourceId}/`)).toBe(sourceRefs);
    expect(git(repo, "rev-parse", "main")).toBe(mainBefore);
    // The fork's work is on its own branch, kept apart; its worktree is gone after success.
    expect(result.worktree).toMatchObject({ merged: false, removed: true });
    const branch = (result.worktree as { branch: string }).branch;
    expect(git(repo, "log", "-1", "--format=%s", branch)).toBe(
      "fix: collapse and trim dashes in slugify (#1)",
    );
    expect(readdirSync(path.join(repo, "..", "climpt-worktrees"))).toEqual([]);
    // Its journal says where it came from, and `climpt runs` lists both.
    const first = JSON.parse(readFileSync(journalOf(repo, forkId), "utf8").split("\n")[0] ?? "");
    expect(first.forkedFrom).toMatchObject({
      runId: sourceId,
      iteration: 2,
      stepId: "continuation.implement",
    });
    const where = ["--agent-dir", path.join(REPO_ROOT, "examples", "agents"), "--cwd", repo];
    const runs = await spawnCli(["runs", ...where], { env: ENV() });
    expect(runs.code, runs.stderr).toBe(0);
    const forkRow = runs.stdout.split("\n").find((line) => line.startsWith(forkId));
    expect(forkRow).toContain(`${sourceId} [2] continuation.implement`);
    const show = await spawnCli(["show", forkId, ...where], { env: ENV() });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/forked from\s+\S+ \[2\] continuation\.implement/);
    expect(show.stdout).toContain(
      `[1] initial.analyze: next → continuation.implement (run ${sourceId}, not run here)`,
    );
  });

  it("refuses an unknown run, a point past the end and an undeclared parameter, with codes and exit 2", async () => {
    const repo = sampleRepo();
    const script = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
    fake.reset();
    fake.enqueue(...script.replies);
    const source = await spawnCli(["run", AGENT, "--cwd", repo, "--issue", "1", "--json"], {
      env: ENV(),
    });
    expect(source.code, source.stderr).toBe(0);
    const sourceId = onlyJson(source.stdout).runId as string;
    fake.reset();
    const fork = (...args: string[]) =>
      spawnCli(["fork", "--agent", AGENT, "--cwd", repo, "--json", ...args], { env: ENV() });

    const unknown = await fork("20990101T000000Z-abcdef", "--at", "2");
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain("RUN-FORK-001");
    const past = await fork(sourceId, "--at", "9");
    expect(past.code).toBe(2);
    expect(past.stdout).toContain("RUN-FORK-002");
    const param = await fork(sourceId, "--at", "2", "--param", "isue=3");
    expect(param.code).toBe(2);
    expect(param.stdout).toContain("RUN-ARGS-001");
    const noAt = await fork(sourceId);
    expect(noAt.code).toBe(2);
    expect(noAt.stdout).toContain("--at");
    // Nothing reached the model, and nothing was made.
    expect(fake.messageRequests()).toHaveLength(0);
    expect(git(repo, "worktree", "list").split("\n")).toHaveLength(1);
    expect(git(repo, "for-each-ref", "--format=%(refname)", "refs/heads")).toBe("refs/heads/main");
  });
});
