import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findGitLayout, type GitLayout } from "@climpt/host-git";
import { useTempDirs } from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { RunSnapshots, removeRunSnapshots } from "./git/run-snapshot.ts";
import {
  isPlainBranchName,
  isRemoteName,
  isSnapshotLabel,
  isSnapshotRunId,
} from "./git/snapshot-names.ts";
import {
  fetchRunSnapshots,
  pushRunSnapshots,
  removeRemoteRunSnapshots,
} from "./git/snapshot-remote.ts";
import { git } from "./runner.test-helper.ts";

// This file's hang limit (vitest.shared.ts): a few dozen short gits against local repositories.
vi.setConfig({ testTimeout: 60_000 });

const tempDir = useTempDirs(afterAll, "climpt-snapshot-remote-");
const RUN = "20261128T120000Z-a1b2c3";
const OTHER = "20261128T120000Z-d4e5f6";

function layoutOf(dir: string): GitLayout {
  const layout = findGitLayout(dir);
  if (layout === null) throw new Error(`${dir} is not a repository`);
  return layout;
}

/** A bare remote, and a clone of it with one commit pushed as main. */
function remoteAndClone(): { bare: string; clone: string } {
  const bare = tempDir();
  git(bare, "init", "-q", "--bare", "-b", "main");
  const clone = tempDir();
  git(clone, "clone", "-q", bare, ".");
  git(clone, "config", "user.name", "climpt-test");
  git(clone, "config", "user.email", "test@climpt.invalid");
  writeFileSync(path.join(clone, "a.txt"), "one\n");
  git(clone, "add", "-A");
  git(clone, "commit", "-qm", "initial");
  git(clone, "push", "-q", "origin", "main");
  return { bare, clone };
}

const refsOf = (dir: string, prefix = "refs/climpt/"): string[] =>
  git(dir, "for-each-ref", "--format=%(refname)", prefix)
    .split("\n")
    .filter((line) => line !== "");

describe("a run's snapshot refs on a remote", () => {
  it("pushes only the run's namespace, fetches the labels asked for without a ref, and removes the remote's with the local ones", async () => {
    const { bare, clone } = remoteAndClone();
    const branchesBefore = git(bare, "for-each-ref", "--format=%(refname) %(objectname)");
    const snapshots = await RunSnapshots.open({ layout: layoutOf(clone), runId: RUN });
    const other = await RunSnapshots.open({ layout: layoutOf(clone), runId: OTHER });
    const start = await snapshots.take("0-start");
    writeFileSync(path.join(clone, "a.txt"), "two\n");
    const step = await snapshots.take("1-initial.work");
    await other.take("0-start");
    await snapshots.close();
    await other.close();
    if (!start.ok || !step.ok) throw new Error("no snapshot");

    await pushRunSnapshots(layoutOf(clone), "origin", RUN);
    expect(refsOf(bare)).toEqual([
      `refs/climpt/${RUN}/0-start`,
      `refs/climpt/${RUN}/1-initial.work`,
    ]);
    // No branch or tag moved, and the other run's refs stayed here.
    expect(
      git(bare, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags"),
    ).toBe(branchesBefore);

    // Another clone fetches one snapshot: its objects arrive, no ref (nor FETCH_HEAD) is made.
    const second = tempDir();
    // --no-local: a clone by path copies the whole object store, the snapshots' objects with it.
    git(second, "clone", "-q", "--no-local", bare, ".");
    expect(() => git(second, "cat-file", "-e", `${step.commit}^{commit}`)).toThrow();
    await fetchRunSnapshots(layoutOf(second), "origin", RUN, ["1-initial.work"]);
    expect(git(second, "rev-parse", `${step.commit}^{tree}`)).toMatch(/^[0-9a-f]{40}$/);
    expect(git(second, "show", `${step.commit}:a.txt`)).toBe("two");
    expect(refsOf(second)).toEqual([]);
    expect(existsSync(path.join(second, ".git", "FETCH_HEAD"))).toBe(false);
    // A label the remote lacks is an error with git's reason.
    await expect(fetchRunSnapshots(layoutOf(second), "origin", RUN, ["7-gone"])).rejects.toThrow(
      /git fetch failed/,
    );

    // Removing the run's refs with the remote: both sides, nothing else.
    expect(await removeRunSnapshots(layoutOf(clone), RUN, undefined, { remote: "origin" })).toBe(2);
    expect(refsOf(bare)).toEqual([]);
    expect(refsOf(clone)).toEqual([`refs/climpt/${OTHER}/0-start`]);
    expect(await removeRemoteRunSnapshots(layoutOf(clone), "origin", RUN)).toBe(0);
  });

  it("refuses a run id, remote or label that could be an option to git or leave the namespace, before git runs", async () => {
    const { bare, clone } = remoteAndClone();
    const layout = layoutOf(clone);
    const marker = path.join(tempDir(), "pwned");
    const hostile = [`--upload-pack=touch ${marker}`, "../heads/main", "a/b", "-x", "", "x y"];
    for (const runId of hostile) {
      expect(isSnapshotRunId(runId)).toBe(false);
      await expect(pushRunSnapshots(layout, "origin", runId)).rejects.toThrow(/not a run id/);
      await expect(fetchRunSnapshots(layout, "origin", runId, ["0-start"])).rejects.toThrow(
        /not a run id/,
      );
    }
    for (const remote of [`--upload-pack=touch ${marker}`, "-oProxyCommand=x", "a b", ""]) {
      expect(isRemoteName(remote)).toBe(false);
      await expect(fetchRunSnapshots(layout, remote, RUN, ["0-start"])).rejects.toThrow(
        /not a git remote/,
      );
    }
    for (const label of [
      "../../heads/main",
      "1-a..b",
      "1-x.lock",
      "start",
      `1-${"-".repeat(0)}`,
      "1-a b",
    ]) {
      expect(isSnapshotLabel(label)).toBe(false);
      await expect(fetchRunSnapshots(layout, "origin", RUN, [label])).rejects.toThrow(
        /not a snapshot label/,
      );
    }
    for (const branch of ["main", "feature/x-1", "release_2.0"])
      expect(isPlainBranchName(branch)).toBe(true);
    for (const branch of [
      `--output=${marker}`,
      "-b",
      "a..b",
      "a/.b",
      "a.lock",
      "a/",
      "HEAD@{1}",
      "a b",
      "a^",
      "",
    ]) {
      expect(isPlainBranchName(branch)).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);
    expect(refsOf(bare, "refs/")).toEqual(["refs/heads/main"]);
  });
});
