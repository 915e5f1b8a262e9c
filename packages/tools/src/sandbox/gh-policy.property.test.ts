/**
 * Argument vectors a shell can hand the gh shim, generated: every spelling gh's parser accepts
 * for the commands the attack suite used (joined, separate and `=` values, grouped short flags,
 * flags before the subcommand or among the positionals, `--`, the method's case, `-X` or
 * `--method`, a path or a URL, every way to send a body) must be refused by the broker's whole
 * decision (`judgeGhRequest`), and the same variety of reads and of the run's own requests must
 * stay allowed.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { githubRunScope } from "@climpt/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BoundaryRequestLog } from "../boundary-request.ts";
import { workingRoot } from "../confine-path.ts";
import type { GithubAccess } from "../github-access.ts";
import { useTempDirs } from "../tools.test-helper.ts";
import { type GhJudgement, judgeGhRequest } from "./gh-judge.ts";
import type { GhStepKind } from "./gh-policy.ts";

const RUNS = 250;

/** The run: issue #1 and pull request #1 of o/r. */
const ACCESS: GithubAccess = {
  scope: githubRunScope({ github: {} }, { issue: 1, prNumber: 1 }),
  hookActs: true,
  repository: async () => ({ known: true, name: "o/r" }),
};

type Chunk = readonly string[];

/** Every way pflag accepts a value-taking flag with this value. */
function valueFlag(long: string, short: string | undefined, value: string): fc.Arbitrary<Chunk> {
  const forms: Chunk[] = [[`--${long}`, value], [`--${long}=${value}`]];
  if (short !== undefined) {
    forms.push([`-${short}`, value], [`-${short}${value}`], [`-${short}=${value}`]);
  }
  return fc.constantFrom(...forms);
}

/** Every way to set a boolean flag, alone or grouped before another letter's group. */
function boolFlag(long: string, short: string | undefined): fc.Arbitrary<Chunk> {
  const forms: Chunk[] = [[`--${long}`], [`--${long}=true`], [`--${long}=1`]];
  if (short !== undefined) forms.push([`-${short}`], [`-${short}=true`], [`-${short}=T`]);
  return fc.constantFrom(...forms);
}

/** A random case of a word (`pAtCh`). */
function anyCase(word: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(""),
    );
}

/**
 * A command: its path words, then the flag chunks and positionals in a random order; sometimes
 * the flags first and the positionals after `--`; sometimes a group-level chunk (`-R x`) moved
 * before the path.
 */
function command(
  pathWords: Chunk,
  positionals: Chunk,
  flags: readonly fc.Arbitrary<Chunk>[],
  leading: readonly fc.Arbitrary<Chunk>[] = [],
): fc.Arbitrary<string[]> {
  return fc
    .tuple(
      fc.tuple(...(flags.length === 0 ? [fc.constant<Chunk>([])] : flags)),
      fc.tuple(...(leading.length === 0 ? [fc.constant<Chunk>([])] : leading)),
      fc.boolean(),
      fc.boolean(),
      fc.nat(),
    )
    .chain(([flagChunks, leadChunks, dashDash, leadFirst, seed]) => {
      const chunks: Chunk[] = [...flagChunks, ...(leadFirst ? [] : leadChunks)];
      const before = leadFirst ? leadChunks.flat() : [];
      if (dashDash) {
        return fc.constant([...before, ...pathWords, ...chunks.flat(), "--", ...positionals]);
      }
      const all: Chunk[] = [...chunks, ...positionals.map((word) => [word])];
      return fc
        .shuffledSubarray(all, { minLength: all.length, maxLength: all.length })
        .map((shuffled) => [...before, ...pathWords, ...(seed % 2 === 0 ? shuffled : all).flat()]);
    });
}

const OTHER_REPOS = ["other/repo", "O/Other", "evil/r"];

function otherIssue(): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 2, max: 99_999 }), fc.constantFrom("plain", "hash", "url"))
    .map(([n, form]) =>
      form === "plain"
        ? String(n)
        : form === "hash"
          ? `#${n}`
          : `https://github.com/o/r/issues/${n}`,
    );
}

describe("the broker refuses every spelling of the refused commands", () => {
  const tempDir = useTempDirs();

  async function judge(argv: readonly string[], stepKind: GhStepKind, cwd?: string) {
    const dir = cwd ?? tempDir();
    const boundary = new BoundaryRequestLog();
    const judged: GhJudgement = await judgeGhRequest(
      { argv, cwd: dir, stdin: Buffer.from("body"), stdinRead: true },
      { stepKind, root: workingRoot(dir), boundary, github: ACCESS },
    );
    return { judged, requests: boundary.requests() };
  }

  const stepKinds = fc.constantFrom<GhStepKind>("work", "verification", "closure", "section");

  it("gh api writes: any method but GET, any body, any spelling", async () => {
    const method = fc
      .constantFrom("PATCH", "PUT", "DELETE", "POST")
      .chain(anyCase)
      .chain((m) => valueFlag("method", "X", m));
    const endpoint = fc
      .constantFrom(
        "repos/O/R/issues/2",
        "repos/O/R/pulls/1/merge",
        "repos/O/R/git/refs/heads/main",
        "repos/O/R/merges",
        "repos/O/R/releases",
      )
      .chain((p) => fc.constantFrom(p, `/${p}`, `https://api.github.com/${p}`));
    const body = fc.oneof(
      fc
        .constantFrom<[string, string]>(["raw-field", "f"], ["field", "F"])
        .chain(([long, short]) =>
          fc
            .constantFrom("state=closed", "base=main", "tag_name=v9", "head=x", "sha=@file")
            .chain((value) => valueFlag(long, short, value)),
        ),
      valueFlag("input", undefined, "body.json"),
    );
    const argv = fc.oneof(
      // An explicit write method, with or without a body, maybe grouped after `-i`.
      endpoint.chain((e) =>
        command(["api"], [e], [method, fc.option(body, { nil: [] }).map((b) => b ?? [])]),
      ),
      endpoint.chain((e) =>
        fc
          .constantFrom("PATCH", "PUT", "DELETE")
          .chain((m) =>
            command(
              ["api"],
              [e],
              [fc.constantFrom<Chunk>([`-iX${m}`], ["-iX", m], ["-iX", m.toLowerCase()])],
            ),
          ),
      ),
      // No method: a body makes it a POST.
      endpoint.chain((e) => command(["api"], [e], [body])),
    );
    await fc.assert(
      fc.asyncProperty(argv, stepKinds, async (words, kind) => {
        const { judged, requests } = await judge(words, kind);
        expect(judged.kind, words.join(" ")).toBe("refused");
        expect(requests).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it("--jq and --template expressions that reach gh's environment", async () => {
    const expression = fc.constantFrom(
      "$ENV.GH_TOKEN",
      "$ENV|.GH_TOKEN",
      "$ ENV.GH_TOKEN",
      "env.GH_TOKEN",
      "ENV",
      '"\\(env.GH_TOKEN)"',
      "[env[]]",
      "$__loc__",
      "input",
      "[inputs]",
      'include "x"; .',
      '{{env "GH_TOKEN"}}',
    );
    const argv = expression.chain((e) =>
      fc.oneof(
        command(
          ["api"],
          ["user"],
          [
            fc
              .constantFrom(["jq", "q"], ["template", "t"])
              .chain(([l, s]) => valueFlag(l as string, s, e)),
          ],
        ),
        command(
          ["issue", "list"],
          [],
          [valueFlag("json", undefined, "title"), valueFlag("jq", "q", e)],
          [valueFlag("repo", "R", "o/r")],
        ),
        command(["pr", "view"], ["1"], [boolFlag("comments", "c"), valueFlag("template", "t", e)]),
      ),
    );
    await fc.assert(
      fc.asyncProperty(argv, stepKinds, async (words, kind) => {
        const { judged } = await judge(words, kind);
        expect(judged.kind, words.join(" ")).toBe("refused");
      }),
      { numRuns: RUNS },
    );
  });

  it("body files outside the working directory", async () => {
    const base = tempDir();
    const work = path.join(base, "work");
    const outside = path.join(base, "hosts.yml");
    mkdirSync(path.join(work, "sub"), { recursive: true });
    writeFileSync(outside, "oauth_token: secret\n");
    symlinkSync(outside, path.join(work, "link.md"));
    symlinkSync(base, path.join(work, "up"));
    const file = fc.constantFrom(
      outside,
      "../hosts.yml",
      "sub/../../hosts.yml",
      "link.md",
      "up/hosts.yml",
      `${work}/../hosts.yml`,
      "/proc/self/environ",
      "/etc/passwd",
      "sub",
    );
    const argv = file.chain((f) =>
      fc.oneof(
        command(["issue", "comment"], ["1"], [valueFlag("body-file", "F", f)]),
        command(
          ["pr", "comment"],
          ["1"],
          [valueFlag("body-file", "F", f)],
          [valueFlag("repo", "R", "o/r")],
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(argv, stepKinds, async (words, kind) => {
        const { judged } = await judge(words, kind, work);
        expect(judged.kind, words.join(" ")).toBe("refused");
      }),
      { numRuns: RUNS },
    );
  });

  it("closes, merges, comments and labels on what is not the run's", async () => {
    const otherRepo = fc.constantFrom(...OTHER_REPOS);
    const closeOther = fc.oneof(
      otherIssue().chain((n) => command(["issue", "close"], [n], [])),
      otherRepo.chain((r) => command(["issue", "close"], ["1"], [], [valueFlag("repo", "R", r)])),
      otherRepo.map((r) => ["issue", "close", `https://github.com/${r}/issues/1`]),
    );
    const mergeMethod = fc
      .constantFrom(boolFlag("squash", "s"), boolFlag("merge", "m"), boolFlag("rebase", "r"))
      .chain((a) => a);
    const mergeOther = fc.oneof(
      fc
        .integer({ min: 2, max: 9999 })
        .chain((n) => command(["pr", "merge"], [String(n)], [mergeMethod])),
      otherRepo.chain((r) =>
        command(["pr", "merge"], ["1"], [mergeMethod], [valueFlag("repo", "R", r)]),
      ),
      fc.integer({ min: 2, max: 9999 }).map((n) => ["pr", "merge", String(n), "-sd"]),
    );
    const commentOther = otherIssue().chain((n) =>
      command(["issue", "comment"], [n], [valueFlag("body", "b", "x")]),
    );
    const labelOther = otherIssue().chain((n) =>
      command(["issue", "edit"], [n], [valueFlag("add-label", undefined, "done")]),
    );
    const argv = fc.oneof(closeOther, mergeOther, commentOther, labelOther);
    await fc.assert(
      fc.asyncProperty(argv, stepKinds, async (words, kind) => {
        const { judged, requests } = await judge(words, kind);
        expect(judged.kind, words.join(" ")).toBe("refused");
        expect(requests).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("the broker keeps allowing reads and the run's own requests", () => {
  const tempDir = useTempDirs();

  async function judge(argv: readonly string[], stepKind: GhStepKind) {
    const dir = tempDir();
    writeFileSync(path.join(dir, "body.md"), "the body");
    const boundary = new BoundaryRequestLog();
    const judged = await judgeGhRequest(
      { argv, cwd: dir, stdin: Buffer.alloc(0), stdinRead: false },
      { stepKind, root: workingRoot(dir), boundary, github: ACCESS },
    );
    return { judged, requests: boundary.requests() };
  }

  it("reads, in any spelling", async () => {
    const anyIssue = fc.integer({ min: 1, max: 9999 }).map(String);
    const argv = fc.oneof(
      anyIssue.chain((n) =>
        command(
          ["issue", "view"],
          [n],
          [valueFlag("json", undefined, "title,labels"), valueFlag("jq", "q", ".title")],
          [valueFlag("repo", "R", "other/repo")],
        ),
      ),
      command(
        ["issue", "list"],
        [],
        [valueFlag("state", "s", "open"), valueFlag("limit", "L", "5")],
      ),
      anyIssue.chain((n) => command(["pr", "view"], [n], [boolFlag("comments", "c")])),
      fc
        .constantFrom("GET", "get", "Get")
        .chain((m) =>
          command(
            ["api"],
            ["repos/o/r/issues"],
            [
              valueFlag("method", "X", m),
              boolFlag("paginate", undefined),
              boolFlag("include", "i"),
            ],
          ),
        ),
      command(["api"], ["repos/o/r/pulls"], [valueFlag("header", "H", "Accept: application/json")]),
    );
    await fc.assert(
      fc.asyncProperty(
        argv,
        fc.constantFrom<GhStepKind>("work", "closure"),
        async (words, kind) => {
          const { judged } = await judge(words, kind);
          expect(judged.kind, words.join(" ")).toBe("run");
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the run's own close, merge and comment, in any spelling", async () => {
    const own = fc.constantFrom("1", "#1", "https://github.com/o/r/issues/1");
    const ownRepo = fc.option(valueFlag("repo", "R", "O/R"), { nil: undefined });
    const close = fc
      .tuple(own, ownRepo)
      .chain(([n, repo]) =>
        command(
          ["issue", "close"],
          [n],
          [fc.option(valueFlag("comment", "c", "done"), { nil: [] }).map((c) => c ?? [])],
          repo === undefined ? [] : [fc.constant(repo)],
        ),
      );
    const merge = fc
      .constantFrom(
        ["--squash"],
        ["-s"],
        ["--squash=true"],
        ["-sd"],
        ["-ds"],
        ["--rebase", "-d"],
        ["-m"],
      )
      .map((flags) => ["pr", "merge", "1", ...flags]);
    const comment = own.chain((n) =>
      command(["issue", "comment"], [n], [valueFlag("body-file", "F", "body.md")]),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(close, merge, comment), async (words) => {
        const { judged, requests } = await judge(words, "closure");
        if (words[1] === "comment") {
          expect(judged, words.join(" ")).toMatchObject({
            kind: "run",
            input: Buffer.from("the body"),
          });
        } else {
          expect(judged.kind, words.join(" ")).toBe("recorded");
          expect(requests).toHaveLength(1);
          expect(requests[0]).not.toHaveProperty("repository");
        }
      }),
      { numRuns: RUNS },
    );
  });
});
