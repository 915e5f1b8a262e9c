import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  type FakeAnthropic,
  type FakeReply,
  type FakeRequest,
  installFakeGh,
  loadFakeScript,
  reply,
  startFakeAnthropic,
} from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { EXAMPLES, onlyJson, REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";

// Two scripted fix-bug runs through the real CLI, the real SDK, bubblewrap and git, each with a
// run of the tests on the base's checkout. A hang limit, not a speed target.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The test the base branch already fails: truncate(text, 0) still returns the ellipsis. */
const PRE_EXISTING = "truncate never exceeds max";

/**
 * examples/sample-repo with one more test that already fails on main (a truncate bug nobody asked
 * the agent to fix), besides the slugify bug the demo agent fixes.
 */
function sampleRepoWithFailingBase(): string {
  const repo = tempDir("baseline-repo");
  dirs.push(repo);
  cpSync(path.join(REPO_ROOT, "examples", "sample-repo"), repo, { recursive: true });
  const testFile = path.join(repo, "test", "run.js");
  const tests = readFileSync(testFile, "utf8");
  const anchor = '  ["truncate cuts long text",';
  if (!tests.includes(anchor)) throw new Error("examples/sample-repo/test/run.js changed");
  writeFileSync(
    testFile,
    tests.replace(
      anchor,
      `  [${JSON.stringify(PRE_EXISTING)}, () => assert.equal(truncate("abc", 0), "")],\n${anchor}`,
    ),
  );
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "textkit: initial, one truncate test already failing");
  return repo;
}

/** The fix-bug example agent, its tests validator comparing failures with the base. */
function comparingAgent(): string {
  const parent = tempDir("baseline-agent");
  dirs.push(parent);
  // The folder is the agent's name.
  const dir = path.join(parent, "fix-bug");
  cpSync(path.join(EXAMPLES, "fix-bug"), dir, { recursive: true });
  const file = path.join(dir, "steps_registry.json");
  const registry = JSON.parse(readFileSync(file, "utf8")) as {
    validators: Record<string, Record<string, unknown>>;
  };
  registry.validators.tests = { ...registry.validators.tests, baseline: "compare" };
  writeFileSync(file, `${JSON.stringify(registry, null, 2)}\n`);
  return dir;
}

interface ValidatorLine {
  readonly type: string;
  readonly validator?: string;
  readonly passed?: boolean;
  readonly exitCode?: number | null;
  readonly baseline?: {
    readonly status: string;
    readonly baseSha?: string;
    readonly preExisting: readonly string[];
    readonly introduced: readonly string[];
  };
}

function journalOf(repo: string, runId: string): ValidatorLine[] {
  const file = path.join(repo, "tmp", "climpt", "logs", "fix-bug", `${runId}.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as ValidatorLine);
}

/** Every text block of the messages a request sent, joined. */
function sentText(request: FakeRequest): string {
  const body = request.body as { messages?: { content: unknown }[] };
  const parts: string[] = [];
  for (const message of body.messages ?? []) {
    if (typeof message.content === "string") parts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content as { type?: string; text?: string }[]) {
        if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
      }
    }
  }
  return parts.join("\n");
}

async function run(agent: string, repo: string, replies: readonly FakeReply[]) {
  fake.reset();
  fake.enqueue(...replies);
  const outcome = await spawnCli(["run", agent, "--cwd", repo, "--issue", "1", "--json"], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "test-key", ...GIT_IDENTITY },
  });
  expect(outcome.code, outcome.stderr).toBe(0);
  const result = onlyJson(outcome.stdout);
  expect(result).toMatchObject({ success: true, finalStepId: "closure.fix" });
  return { result, stderr: outcome.stderr, runId: String(result.runId) };
}

/** A fix-bug run that fixes slugify and, in its first attempt, breaks a passing truncate test. */
async function breakingScript(): Promise<FakeReply[]> {
  const demo = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
  const [runTests, readSlugify, analysis, editSlugify] = demo.replies as FakeReply[];
  const commit = (message: string) => ({
    name: "Bash",
    input: { command: `git add -A && git commit -qm "${message}" && git status --porcelain` },
  });
  const implemented = (description: string) =>
    reply.json({
      stepId: "continuation.implement",
      summary: description,
      changes: { description, files: ["src/slugify.js", "src/truncate.js"], tests_passed: true },
      next_action: { action: "next", reason: "Committed." },
    });
  const verified = reply.json({
    stepId: "verification.verify",
    summary: "Checked.",
    verification: { tests_passed: true, test_summary: "# fail 0" },
    next_action: { action: "next", reason: "Verified." },
  });
  const closing = reply.json({
    stepId: "closure.fix",
    summary: "Done.",
    closure: { committed: true, summary: "Fixed slugify." },
    next_action: { action: "closing", reason: "Verified." },
  });
  const earlyReturn = "  if (text.length <= max) return text;\n";
  return [
    runTests as FakeReply,
    readSlugify as FakeReply,
    analysis as FakeReply,
    editSlugify as FakeReply,
    // A careless "simplification": short text now gets an ellipsis too.
    reply.toolUse({
      name: "Edit",
      input: { file_path: "src/truncate.js", old_string: earlyReturn, new_string: "" },
    }),
    reply.toolUse(commit("fix: slugify dashes; simplify truncate (#1)")),
    implemented("slugify fixed, truncate simplified, committed."),
    verified,
    closing,
    // Sent back: the agent restores what it broke.
    reply.toolUse({
      name: "Edit",
      input: {
        file_path: "src/truncate.js",
        old_string: "export function truncate(text, max) {\n",
        new_string: `export function truncate(text, max) {\n${earlyReturn}`,
      },
    }),
    reply.toolUse(commit("fix: truncate keeps short text again (#1)")),
    implemented("truncate keeps short text again; committed."),
    verified,
    closing,
  ];
}

describe("failures the change did not cause, through climpt run", () => {
  it("completes a run that fixes a different bug while one test already fails on the base, and names that test as pre-existing", async () => {
    const repo = sampleRepoWithFailingBase();
    const base = git(repo, "rev-parse", "HEAD");
    const agent = comparingAgent();
    const demo = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
    const { runId } = await run(agent, repo, demo.replies);

    const tests = journalOf(repo, runId).filter(
      (line) => line.type === "validator" && line.validator === "tests",
    );
    // Both close-outs (the first refused for the uncommitted change) ran the tests: each time
    // the truncate test failed (exit 1), and each time it was found failing on the base too.
    expect(tests.length).toBe(2);
    for (const line of tests) {
      expect(line).toMatchObject({
        passed: true,
        exitCode: 1,
        baseline: {
          status: "compared",
          baseSha: base,
          preExisting: [PRE_EXISTING],
          introduced: [],
        },
      });
    }
    // The base ran once: the second close-out took its outcome from the run's cache.
    const cache = path.join(repo, "tmp", "climpt", "logs", "fix-bug", `${runId}.tmp`, "baseline");
    expect(readdirSync(cache).filter((name) => name.endsWith(".json"))).toHaveLength(1);
    // The git-dirty retry prompt tells the agent, in one line, that the test is not its business.
    const retry = fake
      .messageRequests()
      .find((request) => sentText(request).includes("commit your work"));
    expect(retry, "the git-dirty retry prompt was sent").toBeDefined();
    expect(sentText(retry as FakeRequest)).toContain(
      `Already failing on main at the run's start (${base.slice(0, 12)}) before your change, not yours (leave them): ${PRE_EXISTING}.`,
    );
    // No scratch checkout is left registered.
    expect(git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });

  it("sends a run that breaks a passing test back with only that test in its retry prompt", async () => {
    const repo = sampleRepoWithFailingBase();
    const base = git(repo, "rev-parse", "HEAD");
    const { runId } = await run(comparingAgent(), repo, await breakingScript());

    const tests = journalOf(repo, runId).filter(
      (line) => line.type === "validator" && line.validator === "tests",
    );
    expect(tests.map((line) => [line.passed, line.baseline?.introduced])).toEqual([
      [false, ["truncate keeps short text"]],
      [true, []],
    ]);
    const retry = fake
      .messageRequests()
      .find((request) => sentText(request).includes("the tests still fail"));
    expect(retry, "the test-failed retry prompt was sent").toBeDefined();
    const text = sentText(retry as FakeRequest);
    const prompt = text.slice(text.indexOf("the tests still fail"));
    // The failing tests the prompt lists, and every mention of the pre-existing one outside the
    // command's output (which is passed on as it was printed).
    const prose = prompt.replace(/```[\s\S]*?```/g, "");
    const listed = prose
      .slice(prose.indexOf("Failing tests:"))
      .split("\n")
      .filter((line) => line.startsWith("- "));
    expect(listed).toEqual(["- truncate keeps short text"]);
    expect(prose.split("\n").filter((line) => line.includes(PRE_EXISTING))).toEqual([
      `Already failing on main at the run's start (${base.slice(0, 12)}) before your change, not yours (leave them): ${PRE_EXISTING}.`,
    ]);
  });
  it("opens a pull request whose body names the pre-existing failure and no introduced one, with climpt/verified success on its head", async () => {
    const repo = sampleRepoWithFailingBase();
    const base = git(repo, "rev-parse", "HEAD");
    const origin = tempDir("baseline-origin");
    dirs.push(origin);
    git(origin, "init", "-q", "--bare");
    git(repo, "remote", "add", "origin", origin);
    git(repo, "push", "-q", "origin", "main");
    const gh = installFakeGh({ repo: "climpt-test/textkit" });
    try {
      fake.reset();
      const demo = await loadFakeScript(path.join(REPO_ROOT, "examples/fake-models/fix-bug.json"));
      fake.enqueue(...demo.replies);
      const outcome = await spawnCli(
        [
          "run",
          comparingAgent(),
          "--cwd",
          repo,
          "--issue",
          "1",
          "--worktree",
          "--create-pr",
          "--pr-target",
          "main",
          "--json",
        ],
        {
          env: {
            ...GIT_IDENTITY,
            ...gh.env,
            GH_REPO: "climpt-test/textkit",
            ANTHROPIC_BASE_URL: fake.url,
            ANTHROPIC_API_KEY: "test-key",
          },
        },
      );
      expect(outcome.code, outcome.stderr).toBe(0);
      const result = onlyJson(outcome.stdout) as {
        success: boolean;
        ledger: { commit: { sha: string } | null }[];
      };
      expect(result.success).toBe(true);
      const head = result.ledger.at(-1)?.commit?.sha;
      const state = gh.state().repos["climpt-test/textkit"];
      const body = state?.pullRequests[0]?.body ?? "";
      expect(body).toContain(
        "| tests | `node test/run.js` | ✅ passed: 1 failure pre-existing, none introduced (exit 1) |",
      );
      expect(body).toContain(
        `Pre-existing in tests (failing on \`${base.slice(0, 12)}\` too, not caused by this change): \`${PRE_EXISTING}\`. Introduced: none.`,
      );
      expect(state?.statuses).toEqual([
        expect.objectContaining({ sha: head, state: "success", context: "climpt/verified" }),
      ]);
    } finally {
      gh.remove();
    }
  });
});
