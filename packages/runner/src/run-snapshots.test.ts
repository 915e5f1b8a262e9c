import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout } from "@climpt/host-git";
import { useTempDirs } from "@climpt/testing";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  RunSnapshots,
  removeRunSnapshots,
  runSnapshotRefs,
  snapshotLabel,
} from "./git/run-snapshot.ts";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): the demo runs twice; about 20 s at load 10.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const tempDir = useTempDirs(afterAll, "climpt-snapshot-");
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function layoutOf(dir: string): GitLayout {
  const layout = findGitLayout(dir);
  if (layout === null) throw new Error(`${dir} is not a repository`);
  return layout;
}

/** A repository with one commit, then a staged, a modified, an untracked and an ignored file. */
function busyRepository(): string {
  const dir = tempDir();
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "climpt-test");
  git(dir, "config", "user.email", "test@climpt.invalid");
  writeFileSync(path.join(dir, ".gitignore"), "ignored.txt\n");
  writeFileSync(path.join(dir, "committed.txt"), "one\n");
  writeFileSync(path.join(dir, "modified.txt"), "before\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "initial");
  writeFileSync(path.join(dir, "staged.txt"), "staged\n");
  git(dir, "add", "staged.txt");
  writeFileSync(path.join(dir, "modified.txt"), "after\n");
  writeFileSync(path.join(dir, "untracked.txt"), "untracked\n");
  writeFileSync(path.join(dir, "ignored.txt"), "secret-ish\n");
  return dir;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

describe("snapshots of the working tree", () => {
  it("records committed, staged, modified and untracked files, never the user's index or branches", async () => {
    const repo = busyRepository();
    const indexBefore = readFileSync(path.join(repo, ".git", "index"));
    const branchesBefore = git(repo, "for-each-ref", "refs/heads");
    const snapshots = await RunSnapshots.open({ layout: layoutOf(repo), runId: "run-a" });
    closers.push(() => snapshots.close());

    const taken = await snapshots.take(snapshotLabel(3, "continuation.implement"));
    if (!taken.ok) throw new Error(taken.reason);

    expect(git(repo, "rev-parse", "refs/climpt/run-a/3-continuation.implement")).toBe(taken.commit);
    // The working tree: every file but the ignored one, as it is on disk.
    expect(git(repo, "ls-tree", "--name-only", taken.commit).split("\n").sort()).toEqual([
      ".gitignore",
      "committed.txt",
      "modified.txt",
      "staged.txt",
      "untracked.txt",
    ]);
    expect(git(repo, "show", `${taken.commit}:modified.txt`)).toBe("after");
    // First parent: what was checked out; second: the index (staged, not modified, no untracked).
    expect(git(repo, "rev-parse", `${taken.commit}^1`)).toBe(git(repo, "rev-parse", "HEAD"));
    expect(git(repo, "ls-tree", "--name-only", `${taken.commit}^2`).split("\n").sort()).toEqual([
      ".gitignore",
      "committed.txt",
      "modified.txt",
      "staged.txt",
    ]);
    expect(git(repo, "show", `${taken.commit}^2:modified.txt`)).toBe("before");

    expect(readFileSync(path.join(repo, ".git", "index"))).toEqual(indexBefore);
    expect(git(repo, "for-each-ref", "refs/heads")).toBe(branchesBefore);
    const status = git(repo, "status", "--porcelain").split("\n");
    expect(status.map((line) => line.trim()).sort()).toEqual([
      "?? untracked.txt",
      "A  staged.txt",
      "M modified.txt",
    ]);

    expect(await runSnapshotRefs(layoutOf(repo), "run-a")).toEqual([
      "refs/climpt/run-a/3-continuation.implement",
    ]);
    expect(await removeRunSnapshots(layoutOf(repo), "run-a")).toBe(1);
    expect(git(repo, "for-each-ref", "refs/climpt")).toBe("");
  });

  it("writes any step id as a valid ref name", () => {
    const dir = tempDir();
    git(dir, "init", "-q");
    for (const stepId of ["a..b", "x.lock", "ends.", "sp ace~^:?*[\\", "日本", "%41", "@{u}"]) {
      const ref = `refs/climpt/r/${snapshotLabel(12, stepId)}`;
      expect(git(dir, "check-ref-format", ref), stepId).toBe("");
    }
    expect(snapshotLabel(2, "continuation.implement")).toBe("2-continuation.implement");
    expect(snapshotLabel(2, "a/b")).toBe("2-a%2Fb");
    expect(snapshotLabel(2, "%2F")).toBe("2-%252F");
  });

  it("records one per step end of the fix-bug demo, and costs little per step", async () => {
    const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
    const runOnce = async (snapshots: boolean) => {
      const repo = makeSampleRepo();
      const { client, fake } = await fakeModel("fix-bug");
      closers.push(() => fake.close());
      const runner = new StepFlowRunner(loaded, { modelClient: client, snapshots });
      const started = performance.now();
      const result = await runner.run({ args: { issue: 1 }, cwd: repo });
      const ms = performance.now() - started;
      expect(result.success).toBe(true);
      return { repo, result, ms };
    };
    const without = await runOnce(false);
    const withSnapshots = await runOnce(true);
    const { repo, result } = withSnapshots;

    expect(git(without.repo, "for-each-ref", "refs/climpt")).toBe("");
    const events = readJournal(result.journalPath as string);
    const start = events.find((event) => event.type === "run_start");
    const ends = events.filter((event) => event.type === "step_end");
    expect(ends).toHaveLength(7);
    const refs = git(repo, "for-each-ref", "--format=%(objectname) %(refname)", "refs/climpt");
    const expected = [
      `${start?.type === "run_start" ? start.snapshot : ""} refs/climpt/${result.runId}/0-start`,
      ...ends.map((end) =>
        end.type === "step_end"
          ? `${end.snapshot} refs/climpt/${result.runId}/${end.iteration}-${end.stepId}`
          : "",
      ),
    ];
    expect(refs.split("\n").sort()).toEqual(expected.sort());
    // The implement step left its fix uncommitted (the git-clean validator refuses it later):
    // its snapshot holds the change, its first parent does not.
    const implement = ends.find((end) => end.type === "step_end" && end.iteration === 2);
    const commit = implement?.type === "step_end" ? implement.snapshot : undefined;
    expect(git(repo, "show", `${commit}:src/slugify.js`)).toContain('.replace(/^-+|-+$/g, "")');
    expect(git(repo, "show", `${commit}^1:src/slugify.js`)).not.toContain("^-+|-+$");

    // The cost of one snapshot on the demo's repository as the run left it, taken 9 times.
    const snapshots = await RunSnapshots.open({ layout: layoutOf(repo), runId: "bench" });
    closers.push(() => snapshots.close());
    const times: number[] = [];
    for (let round = 0; round < 9; round++) {
      writeFileSync(path.join(repo, "scratch.txt"), `round ${round}\n`);
      const taken = await snapshots.take(`${round}-bench`);
      if (!taken.ok) throw new Error(taken.reason);
      times.push(taken.ms);
    }
    const perStep = (withSnapshots.ms - without.ms) / 8;
    console.log(
      `snapshot per step on the fix-bug demo: median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}) over 9; whole run ${without.ms.toFixed(0)} ms without, ${withSnapshots.ms.toFixed(0)} ms with 8 snapshots (${perStep.toFixed(1)} ms each, noisy)`,
    );
    // A hang detector, not a benchmark: five spawns of git should never take seconds.
    expect(median(times)).toBeLessThan(5_000);
  });
});
