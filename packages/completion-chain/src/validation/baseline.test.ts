import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgentPromptSource } from "@climpt/c3l-resolver";
import type { LoadedAgent, ValidatorDefinition } from "@climpt/model";
import type { BaselineSetup } from "@climpt/validators";
import { describe, expect, it, vi } from "vitest";
import {
  GIT_CLEAN,
  git,
  gitRepo,
  loadedAgent,
  tempDir,
  validationStep,
  validator,
} from "../completion-chain.test-helper.ts";
import { type CompletionChainResult, runCompletionChain } from "../run-completion-chain.ts";
import { createVerdictStrategy } from "../verdict/create-verdict-strategy.ts";

// Real git, real node:test runs on the branch and in a checkout of the base.
vi.setConfig({ testTimeout: 60_000 });

const TESTS: ValidatorDefinition = {
  ...validator("tests", "node test/run.js", "exitCode:0", "test-failed", {
    testResults: "parseTestOutput",
    output: "stdout",
  }),
  baseline: "compare",
};

/** test/run.js with node:test tests that pass or fail as given. */
function writeTests(repo: string, tests: Record<string, boolean>): void {
  mkdirSync(join(repo, "test"), { recursive: true });
  const cases = Object.entries(tests).map(
    ([name, ok]) =>
      `test(${JSON.stringify(name)}, () => { assert.strictEqual(1 + 1, ${ok ? 2 : 3}); });`,
  );
  writeFileSync(
    join(repo, "test", "run.js"),
    `const test = require("node:test");\nconst assert = require("node:assert");\n${cases.join("\n")}\n`,
  );
}

function commitAll(repo: string, message: string): string {
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", message);
  return git(repo, "rev-parse", "HEAD").trim();
}

/** main already fails "rounds totals"; the work branch changes the tests as given. */
function repoWithFailingBase(work: Record<string, boolean>): { repo: string; base: string } {
  const repo = gitRepo();
  writeTests(repo, { "rounds totals": false, "adds numbers": true });
  const base = commitAll(repo, "tests: rounds totals already fails");
  git(repo, "checkout", "-qb", "work");
  writeTests(repo, { "rounds totals": false, "adds numbers": true, ...work });
  commitAll(repo, "work");
  return { repo, base };
}

async function chain(
  loaded: LoadedAgent,
  cwd: string,
  baseline?: BaselineSetup,
): Promise<CompletionChainResult> {
  return runCompletionChain({
    loaded,
    closureStepId: "closure.fix",
    closureOutput: { summary: "fixed", next_action: { action: "closing" } },
    returnStepId: "continuation.implement",
    attempt: 0,
    iteration: 3,
    cwd,
    params: { issue: 7 },
    verdict: await createVerdictStrategy(loaded.agent.verdict, {
      agentDir: loaded.dir,
      params: {},
    }),
    promptSource: createAgentPromptSource(loaded.dir, loaded.registry),
    channels: { parameters: { issue: 7 } },
    ...(baseline === undefined ? {} : { baseline }),
  });
}

const loaded = loadedAgent({
  validators: [GIT_CLEAN, TESTS],
  validationSteps: [validationStep("closure.fix", ["git-clean", "tests"])],
});

function onMain(): BaselineSetup {
  return {
    target: { ref: "refs/heads/main", name: "main" },
    cacheDir: join(tempDir("climpt-baseline-cache-"), "baseline"),
    launcherFor: "host",
  };
}

describe("failures the change did not cause", () => {
  it("completes when every failing test already fails on the base, and the result names it", async () => {
    const { repo, base } = repoWithFailingBase({ "formats dates": true });
    const result = await chain(loaded, repo, onMain());
    expect(result.kind).toBe("done");
    const tests = result.validation.results.find((entry) => entry.id === "tests");
    expect(tests).toMatchObject({
      passed: true,
      exitCode: 1,
      baseline: {
        status: "compared",
        baseSha: base,
        preExisting: ["rounds totals (test/run.js)"],
        introduced: [],
      },
    });
  });

  it("sends back a change that breaks a passing test with only that test in the retry prompt", async () => {
    const { repo, base } = repoWithFailingBase({ "adds numbers": false });
    const result = await chain(loaded, repo, onMain());
    if (result.kind !== "retry") throw new Error(`expected a retry, got ${result.kind}`);
    expect(result.failurePattern).toBe("test-failed");
    // The prompt without the command's output (which is passed as the command printed it).
    const prose = result.retryPrompt.replace(/```[\s\S]*?```/g, "");
    const listed = prose
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2));
    expect(listed).toEqual(["adds numbers"]);
    expect(prose.split("\n").filter((line) => line.includes("rounds totals"))).toEqual([
      `Already failing on main (${base.slice(0, 12)}) before your change, not yours (leave them): rounds totals (test/run.js).`,
    ]);
    expect(result.validation.results[1]?.baseline).toMatchObject({
      preExisting: ["rounds totals (test/run.js)"],
      introduced: ["adds numbers (test/run.js)"],
    });
  });

  it("is strict without a base (the chain given none), and says so in the result", async () => {
    const { repo } = repoWithFailingBase({ "formats dates": true });
    const result = await chain(loaded, repo);
    if (result.kind !== "retry") throw new Error(`expected a retry, got ${result.kind}`);
    expect(result.retryPrompt).toContain("- rounds totals");
    expect(result.retryPrompt).not.toContain("not yours");
    expect(result.validation.results[1]?.baseline).toEqual({
      status: "unavailable",
      reason: "the completion chain was given no base to compare with",
      preExisting: [],
      introduced: [],
    });
  });
});
