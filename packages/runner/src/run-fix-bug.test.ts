import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readJournal } from "./journal-read.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunEvent } from "./run-event.ts";
import { EXAMPLES, fakeModel, git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 20 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("the fix-bug example, end to end through the real SDK and the fake API", () => {
  it("analyses, fixes, verifies, is refused by the git-clean validator, commits on the retry prompt, and completes", async () => {
    const repo = makeSampleRepo();
    const { client, fake } = await fakeModel("fix-bug");
    closers.push(() => fake.close());
    const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
    const events: RunEvent[] = [];
    const runner = new StepFlowRunner(loaded, {
      modelClient: client,
      onEvent: (event) => events.push(event),
    });

    const result = await runner.run({ args: { issue: 1 }, cwd: repo });

    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.finalStepId).toBe("closure.fix");
    expect(
      result.state.history.map((entry) => `${entry.stepId} -${entry.intent}-> ${entry.transition}`),
    ).toEqual([
      "initial.analyze -next-> continuation.implement",
      "continuation.implement -next-> verification.verify",
      "verification.verify -next-> closure.fix",
      "closure.fix -closing-> validation-retry:continuation.implement",
      "continuation.implement -next-> verification.verify",
      "verification.verify -next-> closure.fix",
      "closure.fix -closing-> closing",
    ]);
    expect(result.iterations).toBe(7);

    // The work really happened in the repository: fixed, committed, clean, tests green.
    expect(readFileSync(path.join(repo, "src/slugify.js"), "utf8")).toContain(
      '.replace(/^-+|-+$/g, "")',
    );
    expect(git(repo, "status", "--porcelain")).toBe("");
    expect(git(repo, "log", "--format=%s", "-1")).toBe(
      "fix: collapse and trim dashes in slugify (#1)",
    );

    // The prompt the model actually received after the failed validation is the git-dirty retry
    // prompt, listing the uncommitted file.
    const requests = fake.messageRequests();
    const retryRequest = requests.find((request) =>
      JSON.stringify(request.body).includes("The close-out was refused"),
    );
    expect(retryRequest).toBeDefined();
    const retryBody = retryRequest?.body as { messages: unknown[] } | undefined;
    const retryText = JSON.stringify(retryBody?.messages[0]);
    expect(retryText).toContain("Changed but not committed");
    expect(retryText).toContain("- src/slugify.js");

    // Handoff flowed forward: the implement prompt carried the analysis.
    const implementPrompt = events.find(
      (event) => event.type === "prompt_resolved" && event.stepId === "continuation.implement",
    );
    expect(implementPrompt?.type === "prompt_resolved" && implementPrompt.text).toContain(
      "Replace each run of non-alphanumeric characters",
    );

    // Validators ran twice: first git-clean failed, then both passed.
    const validators = events.filter((event) => event.type === "validator");
    expect(
      validators.map((event) => event.type === "validator" && `${event.validator}:${event.passed}`),
    ).toEqual(["git-clean:false", "tests:true", "git-clean:true", "tests:true"]);

    // Usage is summed over every call, and the journal holds the whole run.
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.journalPath).not.toBeNull();
    const journal = readJournal(result.journalPath as string);
    expect(journal.at(0)?.type).toBe("run_start");
    expect(journal.at(-1)?.type).toBe("run_end");
    expect(journal.filter((event) => event.type === "model_response")).toHaveLength(14);
  });
});

describe("the journal inside the repository", () => {
  it("ignores itself, so a git-clean validator never sees it", async () => {
    const repo = makeSampleRepo();
    // The sample repository ignores tmp/ itself: take that away, as a user's repository may not.
    git(repo, "rm", "-q", "--cached", ".gitignore");
    git(repo, "commit", "-qm", "no ignore file");
    const { rmSync } = await import("node:fs");
    rmSync(path.join(repo, ".gitignore"));
    const { client, fake } = await fakeModel("fix-bug");
    closers.push(() => fake.close());
    const loaded = await loadAgentDefinition(path.join(EXAMPLES, "agents", "fix-bug"));
    const result = await new StepFlowRunner(loaded, { modelClient: client }).run({
      args: { issue: 1 },
      cwd: repo,
    });
    expect(result.success).toBe(true);
    expect(result.journalPath?.startsWith(repo)).toBe(true);
    expect(git(repo, "status", "--porcelain")).toBe("");
  });
});
