import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { githubRunScope } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { BoundaryRequestLog } from "../boundary-request.ts";
import { workingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import { useTempDirs } from "../tools.test-helper.ts";
import { MAX_BODY_FILE_BYTES } from "./gh-body-file.ts";
import { judgeGhRequest } from "./gh-judge.ts";

function access(overrides: Partial<GithubAccess> = {}): GithubAccess & { asked: () => number } {
  let asked = 0;
  return {
    scope: githubRunScope({ github: {} }, { issue: 1, prNumber: 5 }),
    hookActs: true,
    ownRepository: async () => {
      asked++;
      return "o/r";
    },
    ...overrides,
    asked: () => asked,
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
      input: Buffer.from("from tmp"),
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

  it("asks gh for the run's repository only when a write names one the agent does not declare", async () => {
    const { work } = setup();
    const github = access();
    const boundary = new BoundaryRequestLog();
    expect(await judge(["issue", "close", "1"], { work, github, boundary })).toMatchObject({
      kind: "recorded",
    });
    expect(await judge(["issue", "view", "9", "-R", "x/y"], { work, github })).toMatchObject({
      kind: "run",
    });
    expect(github.asked()).toBe(0);
    expect(
      await judge(["-R", "O/R", "issue", "close", "1"], { work, github, boundary }),
    ).toMatchObject({ kind: "recorded" });
    expect(
      await judge(["-R", "x/y", "issue", "close", "1"], { work, github, boundary }),
    ).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("of x/y is not in the run's repository (o/r)"),
    });
    expect(github.asked()).toBe(2);
    // The own repository is recorded as the run's (no --repo later), merged with the plain close.
    expect(boundary.requests()).toEqual([
      { action: "close", issue: 1, labels: { add: [], remove: [] } },
    ]);
    // gh cannot tell: a named repository is not the run's.
    const unknown = access({ ownRepository: async () => undefined });
    expect(
      await judge(["issue", "close", "1", "--repo", "o/r"], { work, github: unknown }),
    ).toMatchObject({ kind: "refused" });
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
    ).toMatchObject({ kind: "run", argv: ["pr", "edit", "5", "--add-label", "merge:blocked"] });
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

  it("without an access, nothing is the run's: a close is refused (comments and labels: as a run without an issue)", async () => {
    const { work } = setup();
    const judged = await judgeGhRequest(
      {
        argv: ["issue", "close", "1"],
        cwd: work,
        stdin: Buffer.alloc(0),
        stdinRead: false,
      },
      { stepKind: "closure", root: workingRoot(work), boundary: new BoundaryRequestLog() },
    );
    expect(judged).toMatchObject({
      kind: "refused",
      reason: expect.stringContaining("this run has no issue of its own"),
    });
  });
});
