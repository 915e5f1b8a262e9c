import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgentPromptSource } from "@climpt/c3l-resolver";
import type { FailurePattern, JsonValue, LoadedAgent } from "@climpt/model";
import { describe, expect, it } from "vitest";
import type { ChainEvent } from "./chain-events.ts";
import {
  BARE_AGENT_DIR,
  FALLBACK_AGENT_DIR,
  GIT_CLEAN,
  git,
  gitRepo,
  loadedAgent,
  PATTERNS,
  tempDir,
  validationStep,
  validator,
} from "./completion-chain.test-helper.ts";
import { type CompletionChainResult, runCompletionChain } from "./run-completion-chain.ts";
import { createVerdictStrategy } from "./verdict/create-verdict-strategy.ts";
import type { VerdictStrategy } from "./verdict/types.ts";

interface ChainCall {
  readonly loaded: LoadedAgent;
  readonly cwd: string;
  readonly attempt?: number;
  readonly verdict?: VerdictStrategy;
  readonly closureOutput?: JsonValue;
  readonly closureText?: string;
  readonly events?: ChainEvent[];
  readonly validatorTimeoutMs?: number;
  readonly promptOutputCapChars?: number;
  readonly signal?: AbortSignal;
}

async function chain(call: ChainCall): Promise<CompletionChainResult> {
  const verdict =
    call.verdict ??
    (await createVerdictStrategy(call.loaded.agent.verdict, {
      agentDir: call.loaded.dir,
      params: {},
    }));
  return runCompletionChain({
    loaded: call.loaded,
    closureStepId: "closure.fix",
    closureOutput: call.closureOutput ?? { summary: "fixed", next_action: { action: "closing" } },
    closureText: call.closureText ?? "",
    handoff: { "continuation.implement": { description: "changed app.js" } },
    returnStepId: "continuation.implement",
    attempt: call.attempt ?? 0,
    iteration: 4,
    cwd: call.cwd,
    params: { issue: 7 },
    verdict,
    promptSource: createAgentPromptSource(call.loaded.dir, call.loaded.registry),
    channels: { parameters: { issue: 7 } },
    ...(call.signal === undefined ? {} : { signal: call.signal }),
    onEvent: (event) => call.events?.push(event),
    ...(call.validatorTimeoutMs === undefined
      ? {}
      : { validatorTimeoutMs: call.validatorTimeoutMs }),
    ...(call.promptOutputCapChars === undefined
      ? {}
      : { promptOutputCapChars: call.promptOutputCapChars }),
  });
}

function expectRetry(
  result: CompletionChainResult,
): Extract<CompletionChainResult, { kind: "retry" }> {
  if (result.kind !== "retry")
    throw new Error(`expected retry, got ${JSON.stringify(result, null, 2)}`);
  return result;
}

function expectAbort(
  result: CompletionChainResult,
): Extract<CompletionChainResult, { kind: "abort" }> {
  if (result.kind !== "abort")
    throw new Error(`expected abort, got ${JSON.stringify(result, null, 2)}`);
  return result;
}

// A validator command with a `${param}` placeholder (not a template string).
const ISSUE_FILE_COMMAND = ["test -f issue-", "$", "{issue}.md"].join("");

const TESTS = validator("tests", "node test/run.js", "exitCode:0", "test-failed", {
  testResults: "parseTestOutput",
  output: "stdout",
});

function writeTestFile(repo: string, passing: boolean): void {
  mkdirSync(join(repo, "test"), { recursive: true });
  writeFileSync(
    join(repo, "test", "run.js"),
    `const test = require("node:test");
const assert = require("node:assert");
test("adds numbers", () => { assert.strictEqual(1 + 1, ${passing ? 2 : 3}); });
`,
  );
}

describe("the gate retry flow on a real git repository", () => {
  it("a dirty tree gives the git-dirty retry prompt listing the changed files and naming the return step", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "export const answer = 42;\n");
    writeFileSync(join(repo, "notes.txt"), "scratch\n");
    const events: ChainEvent[] = [];
    const result = expectRetry(await chain({ loaded: loadedAgent(), cwd: repo, events }));

    expect(result.returnStepId).toBe("continuation.implement");
    expect(result.failurePattern).toBe("git-dirty");
    expect(result.attempt).toBe(1);
    expect(result.retrySource).toEqual({
      kind: "pattern",
      pattern: "git-dirty",
      path: "steps/retry/fix/f_failed_git-dirty.md",
    });
    expect(result.retryPrompt).toContain("# Commit your work (issue #7)");
    expect(result.retryPrompt).toContain("Validator git-clean refused the close-out");
    expect(result.retryPrompt).toMatch(/Changed but not committed:\n(- .+\n)*- app\.js\n/);
    expect(result.retryPrompt).toMatch(/Untracked:\n- notes\.txt\n/);
    expect(result.retryPrompt).not.toContain("title: Commit your work");
    expect(result.validation.validationStepId).toBe("closure.fix");
    expect(result.validation.results.map((r) => [r.id, r.passed])).toEqual([["git-clean", false]]);
    expect(events.map((event) => event.type)).toEqual([
      "validation-started",
      "validator-finished",
      "validation-finished",
      "retry-prepared",
    ]);

    // The agent commits; the next closing validates and the verdict decides done.
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "fix: answer");
    const done = await chain({ loaded: loadedAgent(), cwd: repo, attempt: result.attempt });
    expect(done.kind).toBe("done");
    if (done.kind !== "done") return;
    expect(done.reason).toContain('closure step "closure.fix" reached and validated');
    expect(done.validation.allPassed).toBe(true);
    expect(done.verdict.done).toBe(true);
  });

  it("runs every validator in declared order; the first failure picks the prompt", async () => {
    const repo = gitRepo();
    writeTestFile(repo, false);
    // test/ is untracked and the tests fail: both validators fail, git-clean is first.
    const loaded = loadedAgent({
      validators: [GIT_CLEAN, TESTS],
      validationSteps: [validationStep("closure.fix", ["git-clean", "tests"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo }));
    expect(result.validation.results.map((r) => [r.id, r.passed])).toEqual([
      ["git-clean", false],
      ["tests", false],
    ]);
    expect(result.failurePattern).toBe("git-dirty");
    expect(result.retryPrompt).toContain("- test/");
  });

  it("a failing real test command gives the test-failed prompt with the failing test and the output", async () => {
    const repo = gitRepo();
    writeTestFile(repo, false);
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "tests");
    const loaded = loadedAgent({
      validators: [GIT_CLEAN, TESTS],
      validationSteps: [validationStep("closure.fix", ["git-clean", "tests"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo }));
    expect(result.failurePattern).toBe("test-failed");
    expect(result.retrySource).toMatchObject({
      kind: "pattern",
      path: "steps/retry/fix/f_failed_test-failed.md",
    });
    expect(result.retryPrompt).toContain("The test command `node test/run.js` exited 1.");
    expect(result.retryPrompt).toContain("- adds numbers");
    expect(result.retryPrompt).toContain("not ok 1 - adds numbers");

    writeTestFile(repo, true);
    git(repo, "commit", "-qam", "fix");
    expect((await chain({ loaded, cwd: repo, attempt: 1 })).kind).toBe("done");
  });

  it("a validator that hangs is stopped and the retry prompt says it timed out", async () => {
    const repo = gitRepo();
    const loaded = loadedAgent({
      validators: [
        // It would run for an hour: only the validator timeout can end it within the test's
        // hang limit, so a timeout that does not stop it shows as a hang, never as a slow pass.
        validator("tests", "sleep 3600", "exitCode:0", "test-failed", { output: "stdout" }),
      ],
      validationSteps: [validationStep("closure.fix", ["tests"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo, validatorTimeoutMs: 300 }));
    expect(result.validation.results[0]?.timedOut).toBe(true);
    expect(result.retryPrompt).toContain(
      "The test command `sleep 3600` timed out and was stopped.",
    );
  });

  it("a missing command (exit 127) aborts with AC-VALIDATOR-001 naming the command", async () => {
    const repo = gitRepo();
    const loaded = loadedAgent({
      validators: [
        validator("lint", "climpt-no-such-linter --check .", "exitCode:0", "test-failed"),
      ],
      validationSteps: [validationStep("closure.fix", ["lint"])],
    });
    const result = expectAbort(await chain({ loaded, cwd: repo }));
    expect(result.error.code).toBe("AC-VALIDATOR-001");
    expect(result.error.message).toContain("climpt-no-such-linter --check .");
    expect(result.error.message).toContain("exit 127");
    expect(result.validation.results[0]?.exitCode).toBe(127);
  });

  it("a missing command aborts even under onFailure skip", async () => {
    const repo = gitRepo();
    const loaded = loadedAgent({
      validators: [validator("lint", "climpt-no-such-linter", "exitCode:0", "test-failed")],
      validationSteps: [validationStep("closure.fix", ["lint"], { action: "skip" })],
    });
    expect(expectAbort(await chain({ loaded, cwd: repo })).error.code).toBe("AC-VALIDATOR-001");
  });

  it("a command that is not executable (exit 126) aborts with AC-VALIDATOR-002", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "check.sh"), "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    const loaded = loadedAgent({
      validators: [validator("check", "./check.sh", "exitCode:0", "test-failed")],
      validationSteps: [validationStep("closure.fix", ["check"])],
    });
    const result = expectAbort(await chain({ loaded, cwd: repo }));
    expect(result.error.code).toBe("AC-VALIDATOR-002");
    expect(result.error.message).toContain("./check.sh");
  });
});

describe("onFailure", () => {
  function dirtyRepo(): string {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "changed\n");
    return repo;
  }

  it("counts attempts and aborts with AGENT_VALIDATION_ABORT once maxAttempts retries are used", async () => {
    const repo = dirtyRepo();
    const loaded = loadedAgent({
      validationSteps: [
        validationStep("closure.fix", ["git-clean"], { action: "retry", maxAttempts: 2 }),
      ],
    });
    const first = expectRetry(await chain({ loaded, cwd: repo, attempt: 0 }));
    expect(first.attempt).toBe(1);
    const second = expectRetry(await chain({ loaded, cwd: repo, attempt: first.attempt }));
    expect(second.attempt).toBe(2);
    const third = expectAbort(await chain({ loaded, cwd: repo, attempt: second.attempt }));
    expect(third.error.code).toBe("AGENT_VALIDATION_ABORT");
    expect(third.error.message).toContain("refused 3 times");
    expect(third.error.message).toContain("maxAttempts is 2");
    expect(third.error.message).toContain("git-clean");
    expect(third.validation.results[0]?.passed).toBe(false);
  });

  it("action abort stops at the first failure with AGENT_VALIDATION_ABORT", async () => {
    const loaded = loadedAgent({
      validationSteps: [validationStep("closure.fix", ["git-clean"], { action: "abort" })],
    });
    const result = expectAbort(await chain({ loaded, cwd: dirtyRepo() }));
    expect(result.error.code).toBe("AGENT_VALIDATION_ABORT");
    expect(result.error.message).toContain('onFailure.action is "abort"');
  });

  it("action skip reports the failures, then lets the verdict decide", async () => {
    const loaded = loadedAgent({
      validationSteps: [validationStep("closure.fix", ["git-clean"], { action: "skip" })],
    });
    const result = await chain({ loaded, cwd: dirtyRepo() });
    expect(result.kind).toBe("done");
    expect(result.validation).toMatchObject({ allPassed: false, passed: true, skipped: true });
    expect(result.validation.firstFailure?.id).toBe("git-clean");
    expect(result.validation.results[0]?.stdout).toContain("app.js");
  });

  it("unlimited retries when maxAttempts is absent", async () => {
    const loaded = loadedAgent({
      validationSteps: [validationStep("closure.fix", ["git-clean"], { action: "retry" })],
    });
    expect(expectRetry(await chain({ loaded, cwd: dirtyRepo(), attempt: 50 })).attempt).toBe(51);
  });
});

describe("retry prompt fallbacks", () => {
  it("falls back to f_failed.md when the pattern's adaptation file is missing", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "changed\n");
    const result = expectRetry(
      await chain({ loaded: loadedAgent({ dir: FALLBACK_AGENT_DIR }), cwd: repo }),
    );
    expect(result.retrySource).toEqual({ kind: "failed", path: "steps/retry/fix/f_failed.md" });
    expect(result.retryPrompt).toContain("# Generic failure (issue #7)");
    expect(result.retryPrompt).toContain(
      "Validator git-clean (git-dirty) failed running `git status --porcelain` with exit code 0.",
    );
    expect(result.retryPrompt).toContain(" M app.js");
  });

  it("uses f_failed.md when the pattern's edition is not `failed` and its file is missing", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "changed\n");
    const loaded = loadedAgent({
      dir: FALLBACK_AGENT_DIR,
      patterns: {
        "git-dirty": { id: "git-dirty", description: "dirty", edition: "dirty", params: [] },
      },
    });
    const result = expectRetry(await chain({ loaded, cwd: repo }));
    expect(result.retrySource).toEqual({ kind: "failed", path: "steps/retry/fix/f_failed.md" });
  });

  it("writes a generic text with validator, command, exit code, extracted params and capped output", async () => {
    const repo = gitRepo();
    const loaded = loadedAgent({
      dir: BARE_AGENT_DIR,
      validators: [
        validator(
          "noisy",
          `node -e "console.log('src/a.ts(3,1): error TS2304: Cannot find name x.'); console.log('x'.repeat(50000)); process.exit(2)"`,
          "exitCode:0",
          "type-error",
          { typeErrors: "parseTypeErrors" },
        ),
      ],
      patterns: {
        "type-error": {
          id: "type-error",
          description: "Type check fails",
          edition: "failed",
          adaptation: "type-error",
          params: ["typeErrors"],
        },
      },
      validationSteps: [validationStep("closure.fix", ["noisy"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo, promptOutputCapChars: 2000 }));
    expect(result.retrySource).toEqual({ kind: "generic" });
    const text = result.retryPrompt;
    expect(text).toContain('validator "noisy" failed (type-error: Type check fails)');
    expect(text).toContain("- Command: `node -e");
    expect(text).toContain("- Result: exit code 2");
    expect(text).toMatch(/- typeErrors: \[.*TS2304/);
    expect(text).toContain("characters omitted");
    expect(text).toContain('continue the work of step "continuation.implement"');
    expect(text.length).toBeLessThan(8000);
  });

  it("says why a validator that exited 0 failed, instead of reporting a bare exit code 0", async () => {
    const loaded = loadedAgent({
      dir: BARE_AGENT_DIR,
      validators: [validator("printer", "echo leftover", "empty", "printed")],
      patterns: {
        printed: { id: "printed", description: "Printed something", edition: "failed", params: [] },
      },
      validationSteps: [validationStep("closure.fix", ["printer"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: gitRepo() }));
    expect(result.retrySource).toEqual({ kind: "generic" });
    expect(result.retryPrompt).toContain(
      "- Result: exit code 0, but the output does not meet the validator's success condition (successWhen)",
    );
  });

  it("a broken retry template is an error with its PR code, not a silent fallback", async () => {
    const dir = tempDir("climpt-agent-");
    mkdirSync(join(dir, "prompts/steps/retry/fix"), { recursive: true });
    writeFileSync(
      join(dir, "prompts/steps/retry/fix/f_failed_git-dirty.md"),
      "{{#each changedFiles}}- {{this}}\n",
    );
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "changed\n");
    const result = expectAbort(await chain({ loaded: loadedAgent({ dir }), cwd: repo }));
    expect(result.error.code).toBe("PR-RESOLVE-006");
    expect(result.error.message).toContain("f_failed_git-dirty.md");
  });

  it("restricts extracted params to the pattern's params", async () => {
    const dir = tempDir("climpt-agent-");
    mkdirSync(join(dir, "prompts/steps/retry/fix"), { recursive: true });
    writeFileSync(
      join(dir, "prompts/steps/retry/fix/f_failed_git-dirty.md"),
      "changed={{changedFiles}} untracked={{untrackedFiles}} exit={{exitCode}}\n",
    );
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "changed\n");
    writeFileSync(join(repo, "new.txt"), "new\n");
    const loaded = loadedAgent({
      dir,
      patterns: {
        "git-dirty": { ...(PATTERNS["git-dirty"] as FailurePattern), params: ["changedFiles"] },
      },
    });
    const result = expectRetry(await chain({ loaded, cwd: repo }));
    const [changed, rest] = result.retryPrompt.split(" untracked=");
    expect(JSON.parse((changed as string).slice("changed=".length))).toEqual(["app.js", "new.txt"]);
    expect(rest).toBe(" exit=0\n");
  });
});

describe("which validators apply", () => {
  it("without a validationSteps entry no validator runs and the verdict decides", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "dirty but unchecked\n");
    const result = await chain({ loaded: loadedAgent({ validationSteps: [] }), cwd: repo });
    expect(result.kind).toBe("done");
    expect(result.validation.results).toEqual([]);
    expect(result.validation.validationStepId).toBeUndefined();
  });

  it("an entry keyed by the verdict type's closure id applies to the running closure step", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "dirty\n");
    const loaded = loadedAgent({
      verdict: {
        type: "detect:keyword",
        declaredType: "keywordSignal",
        config: { completionKeyword: "ALL DONE" },
      },
      validationSteps: [validationStep("closure.keyword", ["git-clean"])],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo, closureText: "ALL DONE" }));
    expect(result.validation).toMatchObject({
      validationStepId: "closure.keyword",
      lookup: "verdict-closure-key",
    });
  });

  it("an entry whose stepId names the closure step applies", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "dirty\n");
    const loaded = loadedAgent({
      validationSteps: [
        validationStep("fix-validation", ["git-clean"], undefined, { stepId: "closure.fix" }),
      ],
    });
    const result = expectRetry(await chain({ loaded, cwd: repo }));
    expect(result.validation).toMatchObject({
      validationStepId: "fix-validation",
      lookup: "step-id",
    });
  });

  it("an unknown validator name aborts with SR-VALID-002", async () => {
    const loaded = loadedAgent({
      validationSteps: [validationStep("closure.fix", ["type-check"])],
    });
    const result = expectAbort(await chain({ loaded, cwd: gitRepo() }));
    expect(result.error.code).toBe("SR-VALID-002");
    expect(result.error.message).toContain('"type-check"');
  });

  it("validator params: CLI params fill the command's placeholders", async () => {
    const repo = gitRepo();
    const loaded = loadedAgent({
      validators: [validator("issue-file", ISSUE_FILE_COMMAND, "exitCode:0", "git-dirty")],
      validationSteps: [validationStep("closure.fix", ["issue-file"])],
    });
    const missing = expectRetry(await chain({ loaded, cwd: repo }));
    expect(missing.validation.results[0]?.command).toBe("test -f issue-'7'.md");
    writeFileSync(join(repo, "issue-7.md"), "notes\n");
    expect((await chain({ loaded, cwd: repo })).kind).toBe("done");
  });
});

describe("verdict stage", () => {
  it("validation passed but the verdict is not done: a retry carrying the verdict's hint", async () => {
    const loaded = loadedAgent({
      dir: BARE_AGENT_DIR,
      verdict: {
        type: "detect:keyword",
        declaredType: "detect:keyword",
        config: { completionKeyword: "SHIPPED" },
      },
    });
    const result = expectRetry(await chain({ loaded, cwd: gitRepo(), closureText: "all good" }));
    expect(result.verdict?.done).toBe(false);
    expect(result.failurePattern).toBeUndefined();
    expect(result.retryPrompt).toContain('completion keyword "SHIPPED" not found');
    expect(result.retryPrompt).toContain('include "SHIPPED"');
    expect(result.returnStepId).toBe("continuation.implement");
    const done = await chain({ loaded, cwd: gitRepo(), closureText: "SHIPPED", attempt: 1 });
    expect(done.kind).toBe("done");
  });

  it("a verdict retry uses f_failed.md when the agent has one", async () => {
    const loaded = loadedAgent({
      dir: FALLBACK_AGENT_DIR,
      verdict: {
        type: "detect:keyword",
        declaredType: "detect:keyword",
        config: { completionKeyword: "SHIPPED" },
      },
    });
    const result = expectRetry(await chain({ loaded, cwd: gitRepo() }));
    expect(result.retrySource).toEqual({ kind: "failed", path: "steps/retry/fix/f_failed.md" });
    expect(result.retryPrompt).toContain('Verdict: completion keyword "SHIPPED" not found');
  });

  it("the verdict is not asked when validation fails", async () => {
    let asked = 0;
    const verdict: VerdictStrategy = {
      type: "test",
      observe() {},
      afterIteration: async () => undefined,
      decide: async () => {
        asked += 1;
        return { done: true, reason: "yes" };
      },
      uvVariables: () => ({}),
    };
    const repo = gitRepo();
    writeFileSync(join(repo, "app.js"), "dirty\n");
    expectRetry(await chain({ loaded: loadedAgent(), cwd: repo, verdict }));
    expect(asked).toBe(0);
  });

  it("a verdict that throws aborts with AC-VERDICT-005", async () => {
    const verdict: VerdictStrategy = {
      type: "meta:custom",
      observe() {},
      afterIteration: async () => undefined,
      decide: async () => {
        throw new Error("database unreachable");
      },
      uvVariables: () => ({}),
    };
    const result = expectAbort(
      await chain({ loaded: loadedAgent({ validationSteps: [] }), cwd: gitRepo(), verdict }),
    );
    expect(result.error.code).toBe("AC-VERDICT-005");
    expect(result.error.message).toContain("database unreachable");
  });
});

describe("contract", () => {
  it("an unknown closure step aborts with AC-CHAIN-001", async () => {
    const loaded = loadedAgent();
    const verdict = await createVerdictStrategy(loaded.agent.verdict, {
      agentDir: loaded.dir,
      params: {},
    });
    const result = await runCompletionChain({
      loaded,
      closureStepId: "closure.nope",
      closureOutput: {},
      attempt: 0,
      iteration: 1,
      cwd: gitRepo(),
      params: {},
      verdict,
      promptSource: createAgentPromptSource(loaded.dir, loaded.registry),
    });
    expect(expectAbort(result).error.code).toBe("AC-CHAIN-001");
  });

  it("an aborted run stops the chain with AC-CHAIN-002", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = expectAbort(
      await chain({ loaded: loadedAgent(), cwd: gitRepo(), signal: controller.signal }),
    );
    expect(result.error.code).toBe("AC-CHAIN-002");
  });
});
