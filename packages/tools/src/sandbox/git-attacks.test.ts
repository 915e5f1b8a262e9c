/**
 * Git metadata attacks through the Bash tool in the sandbox (issue 26): a command rewrites what
 * the repository's git directory holds, then the host — or the user — runs git there. None may
 * have an effect: no command the payload names runs on the host (a canary file outside the
 * working directory, which the sandbox cannot write, stays absent), no ref but the run's branch
 * changes, no object the repository had is lost, and `git fsck` passes. Each runs in a plain
 * repository (the run works in the checkout, on its branch `feature`) and in a linked worktree
 * (on its own branch, beside `main` in the repository's checkout).
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { toolboxFor, useTempDirs } from "../tools.test-helper.ts";
import {
  attackRepo,
  fsckPasses,
  layoutOf,
  repoState,
  userGit,
  userGitRuns,
} from "./git-attacks.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 15 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

interface GitAttack {
  readonly name: string;
  /**
   * The command. `{canary}`: the file a payload creates; `{gitdir}` / `{common}`: the
   * repository's real git directories (a model can find them: `git worktree list`, `../repo`);
   * `{payload}`: a shell command creating the canary.
   */
  readonly command: string;
  /** Set up the repository first (for attacks on a setting some repositories have). */
  readonly setup?: (repo: string) => void;
}

/** A copy of the repository's git data, with a config whose fsmonitor and hooks are the payload. */
const EVIL_COPY = [
  "evil=$PWD/.evil",
  "mkdir -p $evil/hooks",
  "cp -r {common}/objects {common}/refs {common}/HEAD $evil/ 2>/dev/null",
  "cp {common}/packed-refs $evil/ 2>/dev/null",
  `printf '#!/bin/sh\\n{payload}\\n' > $evil/hooks/pre-commit`,
  "chmod +x $evil/hooks/pre-commit",
  `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "{payload}"\\n\\thooksPath = %s/hooks\\n' "$evil" > $evil/config`,
].join("; ");

/** The same copy with the payload as a hook only (core.hooksPath), no fsmonitor. */
const HOOKS_ONLY_COPY = EVIL_COPY.replace('\\tfsmonitor = "{payload}"\\n', "");

const ATTACKS: readonly GitAttack[] = [
  {
    name: "fsmonitor through a commondir file in the git directory",
    command: `${EVIL_COPY}; echo $evil > {gitdir}/commondir`,
  },
  {
    name: "fsmonitor through a commondir file in the common directory",
    command: `${EVIL_COPY}; echo $evil > {common}/commondir`,
  },
  {
    name: "fsmonitor through a config.worktree created in the git directory",
    setup: (repo) => userGit(repo, "config", "extensions.worktreeConfig", "true"),
    command: `printf '[core]\\n\\tfsmonitor = "{payload}"\\n' > {gitdir}/config.worktree`,
  },
  {
    name: "hooks through core.hooksPath in a copy a commondir file names",
    command: `${HOOKS_ONLY_COPY}; echo $evil > {gitdir}/commondir; echo $evil > {common}/commondir`,
  },
  {
    name: "the working tree's .git replaced by a file naming a copy",
    command: `${EVIL_COPY}; mv .git .git-old 2>/dev/null || rm -rf .git 2>/dev/null; echo "gitdir: $evil" > .git`,
  },
  {
    name: "hooks through core.hooksPath in the repository's config",
    command: `mkdir -p h && printf '#!/bin/sh\\n{payload}\\n' > h/pre-commit && chmod +x h/pre-commit; git config core.hooksPath $PWD/h; printf '[core]\\n\\thooksPath = %s/h\\n' "$PWD" >> {common}/config`,
  },
  {
    name: "a hook written into the hooks folder",
    command: `printf '#!/bin/sh\\n{payload}\\n' > {common}/hooks/pre-commit; chmod +x {common}/hooks/pre-commit`,
  },
  {
    name: "update-ref of the base branch",
    command: "git commit -q --allow-empty -m evil; git update-ref refs/heads/main HEAD",
  },
  {
    name: "update-ref of a tag, a new tag, a deleted tag",
    command:
      "git commit -q --allow-empty -m evil; git update-ref refs/tags/v1 HEAD; git tag v9; git tag -d v1a",
  },
  {
    name: "packed-refs rewritten to move the base branch",
    command: `git commit -q --allow-empty -m evil; new=$(git rev-parse HEAD); sed -i "s/^[0-9a-f]* refs\\/heads\\/main$/$new refs\\/heads\\/main/" {common}/packed-refs .git/packed-refs 2>/dev/null; printf '%s refs/heads/main\\n' $new >> {common}/packed-refs`,
  },
  { name: "rm -rf .git", command: "rm -rf .git {gitdir} {common}; ls -a" },
  {
    name: "git gc --prune=now and git repack -ad inside",
    command:
      "git reflog expire --expire=now --all; git gc -q --prune=now; git repack -q -a -d; git prune --expire=now; git count-objects -v",
  },
  {
    name: "an existing object overwritten",
    command: "for f in $(find {common}/objects -type f); do chmod u+w $f; echo junk > $f; done",
  },
  {
    name: "alternates and a shallow file added",
    command: "echo /tmp > {common}/objects/info/alternates; git rev-parse HEAD > {common}/shallow",
  },
  {
    name: "HEAD pointed at the base branch",
    command: "git symbolic-ref HEAD refs/heads/main; echo 'ref: refs/heads/main' > {gitdir}/HEAD",
  },
];

/** The state the run may change: its own branch moves; nothing else in the repository does. */
function expectIntact(
  before: ReturnType<typeof repoState>,
  after: ReturnType<typeof repoState>,
  runBranch: string,
  name: string,
): void {
  const withoutRun = (refs: Map<string, string>) =>
    [...refs].filter(([ref]) => ref !== `refs/heads/${runBranch}`).sort();
  expect(withoutRun(after.refs), `${name}: refs other than the run's branch`).toEqual(
    withoutRun(before.refs),
  );
  expect(after.head, `${name}: HEAD`).toBe(before.head);
  expect(
    [...before.objects].filter((id) => !after.objects.has(id)),
    `${name}: objects lost`,
  ).toEqual([]);
  expect(after.files, `${name}: the git directories' files`).toEqual(before.files);
}

describe("git attacks from the sandbox", () => {
  const tempDir = useTempDirs();

  for (const mode of ["plain", "worktree"] as const) {
    for (const attack of ATTACKS) {
      it(`${mode}: ${attack.name}`, async () => {
        const dir = tempDir();
        const { repo, dangling } = attackRepo(dir);
        attack.setup?.(repo);
        let work = repo;
        let runBranch = "feature";
        if (mode === "worktree") {
          work = path.join(dir, "wt");
          runBranch = "climpt/run";
          userGit(repo, "checkout", "-q", "main");
          userGit(repo, "worktree", "add", "-q", "-b", runBranch, work);
        }
        mkdirSync(path.join(dir, "canaries"));
        const canary = path.join(dir, "canaries", "ran");
        const layout = layoutOf(work);
        const before = repoState(layout);
        const command = attack.command
          .replaceAll("{payload}", `touch ${canary}; false`)
          .replaceAll("{canary}", canary)
          .replaceAll("{gitdir}", layout.gitDir)
          .replaceAll("{common}", layout.commonDir);
        await toolboxFor(work).call("Bash", { command, timeout: 60_000 });

        expectIntact(before, repoState(layout), runBranch, attack.name);
        expect(repoState(layout).objects.has(dangling), "the dangling blob").toBe(true);
        // The user's own git afterwards, in the working tree and in the repository: the payload
        // does not run.
        for (const cwd of new Set([work, repo])) {
          userGitRuns(cwd, "status");
          userGitRuns(cwd, "diff", "HEAD");
          userGitRuns(cwd, "commit", "-q", "--allow-empty", "-m", "after the run");
        }
        expect(existsSync(canary), "the payload ran").toBe(false);
        expect(fsckPasses(layout), "git fsck").toBe(true);
      });
    }
  }
});
