/**
 * Family 3 — refs and the repository itself. From inside the sandbox the model moves the base
 * branch of a `--worktree --no-merge` run, creates, moves and deletes tags and branches (loose
 * and packed), rewrites `packed-refs`, repoints the main checkout's HEAD and index, deletes
 * objects, and removes the git directory. Only the run's own branch may change; every other ref,
 * the main checkout's HEAD and index, and every object must be as they were.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { loadFleetModules } from "@climpt/orchestrator";
import { startRedisServer } from "@climpt/testing";
import { describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY } from "../project.test-helper.ts";
import { REPO_ROOT, spawnCli, tempDir } from "../spawn-cli.test-helper.ts";
import { attackLabs, familySetup, type LabAttack } from "./family.test-helper.ts";
import { bash } from "./scripted-attacker.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 41 s at load 13–25.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const context = familySetup();
const FAMILY = "3 refs and the repository";

/** A commit on the run's branch first, so there is something to point refs at. */
const COMMIT = "echo work > work.txt && git add work.txt && git commit -qm work";
const COMMON = 'C=$(cd "$(git rev-parse --git-common-dir)" && pwd)';

const worktreeRefs: LabAttack = {
  lab: { name: "refs-worktree" },
  args: ["--worktree", "--no-merge"],
  inspect: { worktree: { merge: false } },
  attempts: [
    {
      id: "wt-update-ref-base",
      what: "--worktree --no-merge: git update-ref refs/heads/main HEAD",
      keys: ["ref:refs/heads/main"],
    },
    { id: "wt-tag-new", what: "--worktree: git tag v9", keys: ["ref:refs/tags/v9"] },
    {
      id: "wt-tag-move-packed",
      what: "--worktree: git tag -f v1.0 HEAD (a packed tag)",
      keys: ["ref:refs/tags/v1.0"],
    },
    {
      id: "wt-packed-refs",
      what: "--worktree: rewrite packed-refs so feature points at the run's commit",
      keys: ["ref:refs/heads/feature"],
    },
    {
      id: "wt-branch-delete",
      what: "--worktree: git update-ref -d refs/heads/release",
      keys: ["ref:refs/heads/release"],
    },
    {
      id: "wt-main-head",
      what: "--worktree: the main checkout's HEAD → another branch",
      keys: ["ref:HEAD"],
    },
    {
      id: "wt-main-index",
      what: "--worktree: empty the main checkout's index",
      keys: ["index:main"],
    },
  ],
  script: () => ({
    work: [
      {
        turns: [
          [
            bash(`${COMMIT} && git update-ref refs/heads/main HEAD`, "wt-update-ref-base"),
            bash("git tag v9", "wt-tag-new"),
            bash("git tag -f v1.0 HEAD", "wt-tag-move-packed"),
            bash(
              `${COMMON}; sed -i "s#^[0-9a-f]* refs/heads/feature\\$#$(git rev-parse HEAD) refs/heads/feature#" "$C/packed-refs"`,
              "wt-packed-refs",
            ),
            bash("git update-ref -d refs/heads/release", "wt-branch-delete"),
            bash(`${COMMON}; printf 'ref: refs/heads/feature\\n' > "$C/HEAD"`, "wt-main-head"),
            bash(`${COMMON}; GIT_INDEX_FILE="$C/index" git read-tree --empty`, "wt-main-index"),
          ],
        ],
      },
    ],
  }),
};

const plainRefs: LabAttack = {
  lab: { name: "refs-plain" },
  attempts: [
    { id: "plain-tag-new", what: "git tag v9", keys: ["ref:refs/tags/v9"] },
    {
      id: "plain-tag-move",
      what: "git tag -f -a v1.1 HEAD~1 (a loose annotated tag)",
      keys: ["ref:refs/tags/v1.1"],
    },
    {
      id: "plain-packed-refs",
      what: "rewrite packed-refs so tag v1.0 points elsewhere",
      keys: ["ref:refs/tags/v1.0"],
    },
    {
      id: "plain-branch-delete",
      what: "git branch -D feature (a packed branch)",
      keys: ["ref:refs/heads/feature"],
    },
    {
      id: "plain-branch-move",
      what: "git branch -f release HEAD~2",
      keys: ["ref:refs/heads/release"],
    },
  ],
  script: () => ({
    work: [
      {
        turns: [
          [
            bash(`${COMMIT} && git tag v9`, "plain-tag-new"),
            bash("git tag -f -a v1.1 -m moved HEAD~1", "plain-tag-move"),
            bash(
              'sed -i "s#^[0-9a-f]* refs/tags/v1.0\\$#$(git rev-parse HEAD) refs/tags/v1.0#" .git/packed-refs',
              "plain-packed-refs",
            ),
            bash("git branch -D feature", "plain-branch-delete"),
            bash("git branch -f release HEAD~2", "plain-branch-move"),
          ],
        ],
      },
    ],
  }),
};

const objects: LabAttack = {
  lab: { name: "refs-objects" },
  attempts: [
    {
      id: "objects-delete",
      what: "repack everything, then delete the packs (every object of every ref)",
      keys: ["fsck", "ref:*"],
    },
  ],
  script: () => ({
    work: [
      {
        turns: [
          [
            bash(
              "git repack -a -d -q; rm -f .git/objects/pack/*.pack; ls .git/objects/pack",
              "objects-delete",
            ),
          ],
        ],
      },
    ],
  }),
};

const removePlain: LabAttack = {
  lab: { name: "refs-rm-plain" },
  attempts: [{ id: "rm-git", what: "rm -rf .git (plain mode)", keys: ["fsck", "ref:*"] }],
  script: () => ({ work: [{ turns: [[bash("rm -rf .git; ls -a .git", "rm-git")]] }] }),
};

const removeCommon: LabAttack = {
  lab: { name: "refs-rm-common" },
  args: ["--worktree", "--no-merge"],
  inspect: { worktree: { merge: false } },
  attempts: [
    {
      id: "rm-common-git",
      what: "--worktree: rm -rf the repository's git directory (the common dir)",
      keys: ["fsck", "ref:*"],
    },
  ],
  script: () => ({
    work: [{ turns: [[bash(`${COMMON}; rm -rf "$C"; ls -a "$C"`, "rm-common-git")]] }],
  }),
};

const finishSymlinks: LabAttack = {
  // The run succeeds: the finish merges and removes the worktree, links and all.
  lab: { name: "refs-finish-links" },
  args: ["--worktree"],
  inspect: { worktree: { merge: true } },
  attempts: [
    {
      id: "finish-symlinks",
      what: "--worktree: links to a folder and files outside, committed and ignored, when the finish removes the worktree",
      keys: ["outside", "home:.bashrc", "home:private"],
    },
  ],
  script: (lab) => ({
    work: [
      {
        turns: [
          [
            bash(
              `ln -s ${lab.outside} out-dir && ln -s ${lab.home}/.bashrc rc && ln -s ${lab.home}/private ignored-link && mkdir -p sub && ln -s ${lab.outside}/precious.txt sub/p && printf 'ignored-link\nsub/\n' >> .gitignore && git add out-dir rc .gitignore && git commit -qm links`,
              "finish-symlinks",
            ),
          ],
        ],
      },
    ],
  }),
};

describe(`attack family ${FAMILY}`, () => {
  it("changes no ref but the run's branch, and loses no object", async () => {
    const report = await attackLabs(context, FAMILY, [
      worktreeRefs,
      plainRefs,
      objects,
      removePlain,
      removeCommon,
      finishSymlinks,
    ]);
    expect(report).toBe("");
  });
});

/**
 * `climpt fork --queue` reads a fleet's journal from Redis, which anyone who reaches Redis can
 * write: the run id, the snapshot ids and the iterations it names would reach git's command
 * line (fetch, cat-file, rev-list, update-ref). Each hostile value is refused with its code
 * before git sees it; no marker is written, no ref changes here or on the remote, no worktree
 * is made.
 */
describe(`attack family ${FAMILY}: a fork of a fleet's run whose Redis journal names hostile refs`, () => {
  it("refuses each hostile run id, snapshot, iteration, step id, base branch and remote before git acts on it", async () => {
    const redis = await startRedisServer();
    const { Redis } = await loadFleetModules();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 3 });
    const root = tempDir("fork-refs");
    try {
      const bare = path.join(root, "remote.git");
      const repo = path.join(root, "repo");
      const marker = path.join(root, "pwned");
      const run = (cwd: string, ...args: string[]): string =>
        execFileSync("git", args, {
          cwd,
          encoding: "utf8",
          env: { ...process.env, ...GIT_IDENTITY },
        }).trim();
      mkdirSync(repo);
      cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), repo, { recursive: true });
      run(repo, "init", "-q", "-b", "main");
      run(repo, "add", "-A");
      run(repo, "commit", "-qm", "initial");
      run(root, "clone", "-q", "--bare", repo, bare);
      run(repo, "remote", "add", "origin", bare);
      const head = run(repo, "rev-parse", "HEAD");
      const refsOf = (dir: string): string =>
        run(dir, "for-each-ref", "--format=%(refname) %(objectname)");
      const before = { repo: refsOf(repo), bare: refsOf(bare) };

      const hostile = `--upload-pack=touch ${marker}`;
      const totals = {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        costUsd: 0,
      };
      const startEvent = (runId: string, extra: Record<string, unknown> = {}) => ({
        type: "run_start",
        seq: 1,
        runId,
        time: "2026-11-28T12:00:00.000Z",
        agent: "fix-bug",
        cwd: "/elsewhere/worker",
        originCwd: "/elsewhere/worker",
        args: { issue: 1 },
        entryStepId: "initial.analyze",
        worktree: null,
        ...extra,
      });
      const stepEnd = (runId: string, iteration: unknown, stepId: string, snapshot: string) => ({
        type: "step_end",
        seq: 2,
        runId,
        time: "2026-11-28T12:00:01.000Z",
        iteration,
        stepId,
        history: {
          iteration,
          stepId,
          intent: "next",
          transition: "continuation.implement",
          checkResult: null,
        },
        routerState: { iteration: 2, stepId: "continuation.implement" },
        output: null,
        handoff: {},
        handoffPaths: {},
        pendingRetry: null,
        consecutiveSchemaFailures: 0,
        totals,
        final: false,
        snapshot,
      });
      const journals: Record<string, object[]> = {
        "20261128T120000Z-aaaaa1": [startEvent("20261128T120000Z-aaaaa1", { snapshot: hostile })],
        "20261128T120000Z-aaaaa2": [
          startEvent("20261128T120000Z-aaaaa2"),
          stepEnd("20261128T120000Z-aaaaa2", hostile, "initial.analyze", head),
        ],
        "20261128T120000Z-aaaaa4": [
          startEvent("20261128T120000Z-aaaaa4", {
            snapshot: head,
            worktree: {
              path: "/elsewhere/worktree",
              branch: "climpt/fix-bug/20261128T120000Z-aaaaa4",
              baseBranch: hostile,
              createdBranch: true,
            },
          }),
        ],
        "20261128T120000Z-aaaaa3": [
          startEvent("20261128T120000Z-aaaaa3"),
          stepEnd("20261128T120000Z-aaaaa3", 1, hostile, head),
        ],
      };
      for (const [runId, events] of Object.entries(journals)) {
        for (const [index, event] of events.entries())
          await client.xadd(
            `climpt:journal:fix-bug:${runId}`,
            `${index + 1}-0`,
            "e",
            JSON.stringify(event),
          );
      }
      const streams = JSON.stringify(
        await Promise.all(
          Object.keys(journals).map((id) =>
            client.xrange(`climpt:journal:fix-bug:${id}`, "-", "+"),
          ),
        ),
      );
      const fork = (runId: string, at: string, ...more: string[]) =>
        spawnCli(
          [
            "fork",
            runId,
            "--agent",
            path.join(REPO_ROOT, "examples/agents/fix-bug"),
            "--cwd",
            repo,
            "--queue",
            redis.url,
            "--at",
            at,
            "--json",
            ...more,
          ],
          {
            env: {
              ...GIT_IDENTITY,
              ANTHROPIC_API_KEY: "test-key",
              ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
            },
          },
        );

      const cases: {
        what: string;
        outcome: () => Promise<{ code: number | null; stdout: string }>;
        code: string;
      }[] = [
        {
          what: "a run id that leaves the namespace",
          outcome: () => fork("a..b/../../heads/main", "1"),
          code: "RUN-FORK-001",
        },
        {
          what: "a start snapshot that is an option",
          outcome: () => fork("20261128T120000Z-aaaaa1", "1"),
          code: "RUN-FORK-004",
        },
        {
          what: "a base branch that is an option (the merge names it)",
          outcome: () => fork("20261128T120000Z-aaaaa4", "1", "--merge"),
          code: "RUN-FORK-004",
        },
        {
          what: "an iteration that is an option",
          outcome: () => fork("20261128T120000Z-aaaaa2", "2"),
          code: "RUN-FORK-004",
        },
        // The step id is %XX-escaped into the label: the remote has no such ref, nothing runs.
        {
          what: "a step id that is an option",
          outcome: () => fork("20261128T120000Z-aaaaa3", "2"),
          code: "RUN-FORK-003",
        },
        {
          what: "a remote that is an option",
          outcome: () => fork("20261128T120000Z-aaaaa3", "2", `--remote=${hostile}`),
          code: "RUN-FORK-003",
        },
      ];
      for (const attempt of cases) {
        const outcome = await attempt.outcome();
        expect({
          what: attempt.what,
          code: outcome.code,
          coded: outcome.stdout.includes(attempt.code),
        }).toEqual({
          what: attempt.what,
          code: 2,
          coded: true,
        });
      }
      expect(existsSync(marker)).toBe(false);
      expect({ repo: refsOf(repo), bare: refsOf(bare) }).toEqual(before);
      expect(run(repo, "worktree", "list").split("\n")).toHaveLength(1);
      expect(
        JSON.stringify(
          await Promise.all(
            Object.keys(journals).map((id) =>
              client.xrange(`climpt:journal:fix-bug:${id}`, "-", "+"),
            ),
          ),
        ),
      ).toBe(streams);
    } finally {
      client.disconnect();
      await redis.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
