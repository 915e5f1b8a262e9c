import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decideGitPushShape,
  type GitPushPermissions,
  type GitPushRepository,
  planGitPush,
} from "./git-push-policy.ts";

const permissions: GitPushPermissions = {
  runBranch: "climpt/issue-7",
  branches: ["docs/*", "gh-pages"],
  protectedBranches: ["main", "master", "develop"],
};
const repository: GitPushRepository = {
  currentBranch: "climpt/issue-7",
  remotes: ["origin", "upstream"],
  defaultRemote: "origin",
};

function plan(argv: readonly string[]) {
  const shape = decideGitPushShape(argv);
  if (shape.kind === "refuse") return shape;
  return planGitPush(shape.shape, permissions, repository);
}

describe("decideGitPushShape and planGitPush", () => {
  it.each([
    [["push"], "origin", [["HEAD", "climpt/issue-7"]]],
    [["push", "-u", "origin", "HEAD"], "origin", [["HEAD", "climpt/issue-7"]]],
    [["push", "--set-upstream", "upstream"], "upstream", [["HEAD", "climpt/issue-7"]]],
    [["--no-pager", "push", "-uq", "origin", "HEAD:docs/a"], "origin", [["HEAD", "docs/a"]]],
    [
      ["push", "origin", "HEAD:refs/heads/gh-pages", "docs/x:docs/y/z"],
      "origin",
      [
        ["HEAD", "gh-pages"],
        ["refs/heads/docs/x", "docs/y/z"],
      ],
    ],
    [
      ["push", "--", "origin", "climpt/issue-7"],
      "origin",
      [["refs/heads/climpt/issue-7", "climpt/issue-7"]],
    ],
    [["push", "-n", "-v", "--no-verify", "origin"], "origin", [["HEAD", "climpt/issue-7"]]],
  ])("accepts %j", (argv, remote, updates) => {
    const decided = plan(argv);
    expect(decided.kind).toBe("push");
    if (decided.kind !== "push") return;
    expect(decided.plan.remote).toBe(remote);
    expect(decided.plan.updates.map((update) => [update.src, update.dst])).toEqual(updates);
  });

  it("sets an upstream only for the run's branch pushed to its own name, and never on a dry run", () => {
    const own = plan(["push", "-u", "origin", "HEAD"]);
    expect(own.kind === "push" && own.plan.upstreams).toEqual([
      { branch: "climpt/issue-7", remote: "origin" },
    ]);
    const other = plan(["push", "-u", "origin", "HEAD:docs/a"]);
    expect(other.kind === "push" && other.plan.upstreams).toEqual([]);
    expect(other.kind === "push" && other.plan.upstreamsSkipped).toEqual(["climpt/issue-7"]);
    const dry = plan(["push", "-u", "--dry-run", "origin", "HEAD"]);
    expect(dry.kind === "push" && dry.plan.upstreams).toEqual([]);
  });

  it.each([
    [["push", "--force"], /forces the push/],
    [["push", "-f", "origin", "HEAD"], /forces the push/],
    [["push", "-uf", "origin", "HEAD"], /forces the push/],
    [["push", "--force-with-lease", "origin", "HEAD"], /forces the push/],
    [["push", "--force-with-lease=x:y", "origin", "HEAD"], /forces the push/],
    [["push", "--force-if-includes"], /forces the push/],
    [["push", "origin", "+HEAD:climpt/issue-7"], /forces the push/],
    [["push", "--delete", "origin", "climpt/issue-7"], /deletes/],
    [["push", "-d", "origin", "x"], /deletes/],
    [["push", "origin", ":climpt/issue-7"], /deletes a branch/],
    [["push", "--prune", "origin"], /deletes/],
    [["push", "--tags"], /pushes tags/],
    [["push", "--follow-tags"], /pushes tags/],
    [["push", "origin", "v1"], undefined],
    [["push", "origin", "HEAD:refs/tags/v1"], /pushes a tag/],
    [["push", "origin", "refs/tags/v1:refs/tags/v1"], /pushes a tag/],
    [["push", "origin", "HEAD:refs/notes/x"], /not a branch/],
    [["push", "--all"], /more than the run's branches/],
    [["push", "--mirror"], /more than the run's branches/],
    [["push", "--receive-pack=touch /tmp/x", "origin", "HEAD"], /another program/],
    [["push", "--exec=touch /tmp/x", "origin", "HEAD"], /another program/],
    [["push", "-o", "ci.skip", "origin", "HEAD"], /push options/],
    [["push", "--push-option=x", "origin", "HEAD"], /push options/],
    [["push", "--repo=../x.git"], /URL or path/],
    [["push", "--set-up", "origin", "HEAD"], /not one of the options/],
    [
      ["-c", "remote.origin.receivepack=touch /tmp/x", "push", "origin", "HEAD"],
      /global option `-c`/,
    ],
    [["-C", "..", "push"], /global option `-C`/],
    [["--git-dir=/tmp/x", "push"], /global option/],
    [["--work-tree", "/tmp", "push"], /global option/],
    [["push", "https://github.com/o/r.git", "HEAD"], /not a remote's name/],
    [["push", "ext::sh -c touch% /tmp/x", "HEAD"], /not a remote's name/],
    [["push", "../remote.git", "HEAD"], /not a remote's name/],
    [["push", "/tmp/remote.git", "HEAD"], /not a remote's name/],
    [["push", "git@github.com:o/r.git", "HEAD"], /not a remote's name/],
    [["push", "file:///tmp/r", "HEAD"], /not a remote's name/],
    [["push", "elsewhere", "HEAD"], /not a remote of this repository/],
    [["push", "origin", "HEAD:main"], /`main` is protected/],
    [["push", "origin", "HEAD:refs/heads/develop"], /`develop` is protected/],
    [["push", "origin", "main"], /`main` is protected/],
    [
      ["push", "origin", "HEAD:feature"],
      /may push only `climpt\/issue-7` \(the run's\), `docs\/\*`, `gh-pages`/,
    ],
    [["push", "origin", "HEAD:docs"], /may push only/],
    [["push", "origin", "refs/heads/*:refs/heads/*"], /pattern/],
    [["push", "origin", "^HEAD"], /negative/],
    [["push", "origin", "HEAD:a:b"], /more than one/],
    [["push", "origin", "HEAD~1:climpt/issue-7"], /does not start with/],
    [["push", "origin", "HEAD:-x"], /does not end in a branch name/],
    [["push", "origin", "HEAD:a..b"], /does not end in a branch name/],
    [["fetch", "origin"], /only `git push`/],
  ])("refuses %j", (argv, reason) => {
    const decided = plan(argv);
    expect(decided.kind).toBe("refuse");
    if (reason !== undefined && decided.kind === "refuse") expect(decided.reason).toMatch(reason);
  });

  it("refuses a detached HEAD without a target, and a run without a branch", () => {
    const shape = decideGitPushShape(["push"]);
    if (shape.kind !== "push") throw new Error("expected a shape");
    const detached = planGitPush(shape.shape, permissions, {
      ...repository,
      currentBranch: undefined,
    });
    expect(detached).toMatchObject({ kind: "refuse", reason: expect.stringMatching(/detached/) });
    const none = planGitPush(shape.shape, { branches: [], protectedBranches: [] }, repository);
    expect(none).toMatchObject({ kind: "refuse", reason: expect.stringMatching(/only none/) });
  });

  it("never plans a push to a protected or undeclared branch, whatever the argument vector", () => {
    const word = fc.oneof(
      fc.constantFrom(
        "push",
        "-u",
        "-f",
        "--force",
        "origin",
        "upstream",
        "HEAD",
        "main",
        "develop",
        ":",
        "+",
        "HEAD:main",
        "refs/heads/main",
        "climpt/issue-7",
        "docs/x",
        "--",
        "-n",
        "-q",
        "--tags",
        "refs/tags/v1",
        "HEAD:refs/heads/main",
        "--delete",
        "-c",
        "-C",
        "*",
      ),
      fc.string({ maxLength: 12 }),
    );
    const argv = fc.tuple(fc.array(word, { maxLength: 3 }), fc.array(word, { maxLength: 5 }));
    fc.assert(
      fc.property(argv, ([before, after]) => {
        const decided = plan([...before, "push", ...after]);
        if (decided.kind !== "push") return;
        for (const update of decided.plan.updates) {
          expect(permissions.protectedBranches).not.toContain(update.dst);
          expect(
            update.dst === permissions.runBranch ||
              update.dst === "gh-pages" ||
              update.dst.startsWith("docs/"),
          ).toBe(true);
          expect(update.src === "HEAD" || update.src.startsWith("refs/heads/")).toBe(true);
        }
        expect(repository.remotes).toContain(decided.plan.remote);
        const joined = [...before, ...after].join(" ");
        expect(joined).not.toMatch(/(?:^| )(?:-f|--force|--delete|--tags|-c|-C)(?: |$)/);
      }),
      { numRuns: 3000 },
    );
  });
});
