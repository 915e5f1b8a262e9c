import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { githubRunScope } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { BoundaryRequestLog } from "../boundary-request.ts";
import { workingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import type { RunRepository } from "../run-repository.ts";
import { useTempDirs } from "../tools.test-helper.ts";
import { MAX_BODY_FILE_BYTES } from "./gh-body-file.ts";
import { judgeGhRequest } from "./gh-judge.ts";

const O_R: RunRepository = { known: true, name: "o/r" };

/** The run: issue #1 and pull request #5 of o/r. */
function access(overrides: Partial<GithubAccess> = {}): GithubAccess {
  return {
    scope: githubRunScope({ github: {} }, { issue: 1, prNumber: 5 }),
    hookActs: true,
    repository: async () => O_R,
    ...overrides,
  };
}

describe("judgeGhRequest", () => {
  const tempDir = useTempDirs();

  function setup() {
    const base = tempDir();
    const work = path.join(base, "work");
    const tmp = path.join(base, "tmp");
    mkdirSync(path.join(work, "sub"), { recursive: true });
    mkdirSync(tmp);
    return { base, work, tmp };
  }

  async function judge(
    argv: readonly string[],
    options: {
      work: string;
      cwd?: string;
      readableDirs?: readonly string[];
      github?: GithubAccess;
      boundary?: BoundaryRequestLog;
      stdin?: string;
    },
  ) {
    return judgeGhRequest(
      {
        argv,
        cwd: options.cwd ?? options.work,
        stdin: Buffer.from(options.stdin ?? ""),
        stdinRead: options.stdin !== undefined,
      },
      {
        stepKind: "closure",
        root: workingRoot(options.work),
        boundary: options.boundary ?? new BoundaryRequestLog(),
        github: options.github ?? access(),
        ...(options.readableDirs === undefined ? {} : { readableDirs: options.readableDirs }),
      },
    );
  }

  it("reads a body file from $TMPDIR (a readable folder) or the working directory, and passes it on stdin", async () => {
    const { work, tmp } = setup();
    writeFileSync(path.join(tmp, "body.md"), "from tmp");
    writeFileSync(path.join(work, "sub", "body.md"), "from work");
    const argv = ["issue", "comment", "1", "--body-file", path.join(tmp, "body.md")];
    expect(await judge(argv, { work, readableDirs: [tmp] })).toEqual({
      kind: "run",
      argv: ["issue", "comment", "1", "--body-file", "-"],
      env: { GH_REPO: "o/r" },
      input: Buffer.from("from tmp"),
      repository: "o/r",
    });
    // Without the folder listed, the same file is outside.
    expect(await judge(argv, { work })).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("outside the working directory and the command's $TMPDIR"),
    });
    // Relative to the command's directory.
    expect(
      await judge(["issue", "comment", "1", "-Fbody.md"], { work, cwd: path.join(work, "sub") }),
    ).toMatchObject({ kind: "run", input: Buffer.from("from work") });
  });

  it("refuses links out, hard links, FIFOs, directories, `..` and files over the cap, without blocking", async () => {
    const { base, work, tmp } = setup();
    writeFileSync(path.join(base, "secret"), "token");
    symlinkSync(path.join(base, "secret"), path.join(work, "link.md"));
    symlinkSync(base, path.join(tmp, "up"));
    writeFileSync(path.join(work, "linked.md"), "x");
    linkSync(path.join(work, "linked.md"), path.join(work, "second-name.md"));
    writeFileSync(path.join(work, "big.md"), Buffer.alloc(MAX_BODY_FILE_BYTES + 1, 97));
    // A FIFO nobody writes: opened non-blocking, refused at once.
    execFileSync("mkfifo", [path.join(work, "fifo.md")]);
    for (const [file, why] of [
      ["link.md", "leads out of the working directory"],
      [path.join(tmp, "up", "secret"), "leads out of the working directory"],
      ["linked.md", "more than one hard link"],
      ["sub", "not a regular file"],
      ["fifo.md", "not a regular file"],
      ["sub/../link.md", "may not contain `..`"],
      ["missing.md", "no such file"],
      ["big.md", `larger than ${MAX_BODY_FILE_BYTES} bytes`],
      ["/etc/passwd", "outside the working directory"],
    ] as const) {
      const judged = await judge(["issue", "comment", "1", "--body-file", file], {
        work,
        readableDirs: [tmp],
      });
      expect(judged, file).toMatchObject({
        kind: "refused",
        reason: expect.stringContaining(why),
      });
    }
  });

  it("acts in the run's repository unless the call names another; a write only in the run's or a declared one", async () => {
    const { work } = setup();
    const github = access();
    const boundary = new BoundaryRequestLog();
    expect(await judge(["issue", "close", "1"], { work, github, boundary })).toMatchObject({
      kind: "recorded",
    });
    // A read names no repository: the run's, in GH_REPO, whatever folder the command ran in.
    expect(await judge(["issue", "view", "9"], { work, cwd: path.join(work, "sub") })).toEqual({
      kind: "run",
      argv: ["issue", "view", "9"],
      env: { GH_REPO: "o/r" },
      input: Buffer.alloc(0),
      repository: "o/r",
    });
    // A read of another repository runs there and says so.
    expect(await judge(["issue", "view", "9", "-R", "x/y"], { work, github })).toEqual({
      kind: "run",
      argv: ["issue", "view", "9", "--repo", "x/y"],
      env: { GH_REPO: "o/r" },
      input: Buffer.alloc(0),
      repository: "x/y",
      note: "climpt's GitHub broker: this read was of x/y, which is not the run's repository (o/r).\n",
    });
    expect(
      await judge(["-R", "O/R", "issue", "close", "1"], { work, github, boundary }),
    ).toMatchObject({ kind: "recorded" });
    expect(
      await judge(["-R", "x/y", "issue", "close", "1"], { work, github, boundary }),
    ).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("of x/y is not in the run's repository (o/r)"),
    });
    // The own repository is recorded as the run's (the hook gives it --repo), merged with the
    // plain close.
    expect(boundary.requests()).toEqual([
      { action: "close", issue: 1, labels: { add: [], remove: [] } },
    ]);
  });

  it("refuses what needs the run's repository when it is unknown, and runs what names one", async () => {
    const { work } = setup();
    const unknown = access({
      repository: async () => ({ known: false, reason: "`gh repo view` failed: no remotes" }),
    });
    for (const argv of [
      ["issue", "close", "1", "--repo", "o/r"],
      ["issue", "close", "1"],
      ["issue", "comment", "1", "-b", "x"],
      ["issue", "view", "1"],
      ["repo", "view"],
      ["api", "repos/{owner}/{repo}/issues"],
    ]) {
      expect(await judge(argv, { work, github: unknown }), argv.join(" ")).toMatchObject({
        kind: "refused",
      });
    }
    expect(await judge(["issue", "view", "1"], { work, github: unknown })).toMatchObject({
      reason: expect.stringContaining(
        "the run's repository is unknown (`gh repo view` failed: no remotes)",
      ),
    });
    expect(await judge(["issue", "view", "1", "-R", "o/r"], { work, github: unknown })).toEqual({
      kind: "run",
      argv: ["issue", "view", "1", "--repo", "o/r"],
      env: {},
      input: Buffer.alloc(0),
      repository: "o/r",
      note: "climpt's GitHub broker: this read was of o/r, which is not the run's repository (unknown).\n",
    });
    expect(await judge(["search", "issues", "flaky"], { work, github: unknown })).toEqual({
      kind: "run",
      argv: ["search", "issues", "flaky"],
      env: {},
      input: Buffer.alloc(0),
    });
  });

  it("gives `gh repo view` and a `gh api` endpoint's {owner}/{repo} the run's repository", async () => {
    const { work } = setup();
    expect(await judge(["repo", "view", "--json", "name"], { work })).toMatchObject({
      kind: "run",
      argv: ["repo", "view", "--json", "name", "o/r"],
      repository: "o/r",
    });
    expect(await judge(["api", "repos/{owner}/{repo}/issues/1"], { work })).toMatchObject({
      kind: "run",
      argv: ["api", "repos/o/r/issues/1"],
      env: { GH_REPO: "o/r" },
      repository: "o/r",
    });
    expect(await judge(["api", "repos/:owner/:repo/pulls", "--paginate"], { work })).toMatchObject({
      kind: "run",
      argv: ["api", "repos/o/r/pulls", "--paginate"],
    });
    // {owner} alone still names a repository: the run's owner's, which the note names.
    expect(await judge(["api", "/repos/{owner}/other/issues"], { work })).toMatchObject({
      kind: "run",
      argv: ["api", "/repos/o/other/issues"],
      repository: "o/other",
      note: expect.stringContaining("this read was of o/other"),
    });
    expect(await judge(["api", "repos/X/Y/issues"], { work })).toMatchObject({
      kind: "run",
      repository: "x/y",
      note: expect.stringContaining("this read was of x/y"),
    });
    expect(await judge(["api", "user"], { work })).toEqual({
      kind: "run",
      argv: ["api", "user"],
      env: { GH_REPO: "o/r" },
      input: Buffer.alloc(0),
    });
  });

  it("records with a declared repository, and a pull request's labels wait for its merge", async () => {
    const { work } = setup();
    const github = access({
      scope: githubRunScope(
        { github: { targets: { issues: "any", pullRequests: "own", repositories: ["o/other"] } } },
        { prNumber: 5 },
      ),
    });
    const boundary = new BoundaryRequestLog();
    expect(
      await judge(["issue", "close", "3", "-R", "O/Other"], { work, github, boundary }),
    ).toMatchObject({ kind: "recorded" });
    // Before the merge is recorded, a label edit runs at once.
    expect(
      await judge(["pr", "edit", "5", "--add-label", "merge:blocked"], { work, github, boundary }),
    ).toMatchObject({
      kind: "run",
      argv: ["pr", "edit", "5", "--add-label", "merge:blocked"],
      env: { GH_REPO: "o/r" },
    });
    await judge(["pr", "merge", "5", "-s"], { work, github, boundary });
    expect(
      await judge(
        ["pr", "edit", "5", "--add-label", "merge:done,shipped", "--remove-label", "merge:ready"],
        {
          work,
          github,
          boundary,
        },
      ),
    ).toMatchObject({ kind: "recorded" });
    expect(boundary.requests()).toEqual([
      { action: "close", issue: 3, labels: { add: [], remove: [] }, repository: "o/other" },
      {
        action: "merge",
        pullRequest: 5,
        method: "squash",
        deleteBranch: false,
        labels: { add: ["merge:done", "shipped"], remove: ["merge:ready"] },
      },
    ]);
  });

  it("refuses a close or merge the hook would not act on, and a body on stdin the shim did not read", async () => {
    const { work } = setup();
    const off = access({ hookActs: false });
    expect(await judge(["issue", "close", "1"], { work, github: off })).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("GitHub integration is off"),
    });
    expect(await judge(["issue", "comment", "1", "--body-file", "-"], { work })).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("did not read it"),
    });
    expect(
      await judge(["issue", "comment", "1", "--body-file", "-"], { work, stdin: "piped" }),
    ).toMatchObject({ kind: "run", input: Buffer.from("piped") });
  });

  it("without an access, no repository is the run's: every call that needs one is refused", async () => {
    const { work } = setup();
    for (const argv of [
      ["issue", "comment", "1", "-b", "x"],
      ["issue", "list"],
    ]) {
      const judged = await judgeGhRequest(
        { argv, cwd: work, stdin: Buffer.alloc(0), stdinRead: false },
        { stepKind: "work", root: workingRoot(work), boundary: new BoundaryRequestLog() },
      );
      expect(judged, argv.join(" ")).toMatchObject({
        kind: "refused",
        reason: expect.stringContaining(
          "the run's repository is unknown (no run gave this command a repository",
        ),
      });
    }
  });
});
