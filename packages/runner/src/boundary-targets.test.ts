/**
 * A run's boundary actions belong to it, end to end: a closure step's sandboxed `gh pr merge` of
 * the run's pull request is recorded (answered "Recorded", exit 0), performed by the boundary
 * hook after validated completion and journaled; a close of another issue is refused where it is
 * asked for and never reaches GitHub.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, writeTestAgent } from "./agents.test-helper.ts";
import { readJournal } from "./journal/journal.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 11 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A gh that records each call's argv (a JSON line per call); its repository is o/r. */
function recordingGh(): { gh: string; calls: () => string[][] } {
  const dir = tempDirForFile("climpt-gh-");
  const gh = path.join(dir, "gh");
  const log = path.join(dir, "calls.jsonl");
  writeFileSync(
    gh,
    `#!/bin/sh\nnode -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + "\\n")' "${log}" "$@"\nif [ "$1 $2" = "repo view" ]; then echo '{"nameWithOwner":"o/r"}'; fi\n`,
  );
  chmodSync(gh, 0o755);
  return {
    gh,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => JSON.parse(line) as string[])
        : [],
  };
}

/** Past the Bash text filter (which refuses a literal `gh pr merge`): the broker decides. */
const hidden = (command: string): string =>
  `printf %s ${Buffer.from(command).toString("base64")} | base64 -d | sh`;

describe("boundary actions belong to the run", () => {
  it("a closure step's merge of the run's pull request is recorded, merged by the hook and journaled; another issue's close is refused", async () => {
    const { gh, calls } = recordingGh();
    const dir = writeTestAgent({
      name: "merging",
      entryStep: "closure.merge",
      parameters: {
        prNumber: { type: "number", required: true, cli: "--pr-number" },
        issue: { type: "number", cli: "--issue" },
      },
      steps: {
        "closure.merge": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
    });
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      reply.toolUse({
        name: "Bash",
        input: { command: hidden("gh pr merge 5 --squash --delete-branch") },
      }),
      reply.toolUse({ name: "Bash", input: { command: hidden("gh issue close 9") } }),
      intentReply("closing"),
    );
    const result = await new StepFlowRunner(await loadAgentDefinition(dir), {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      ghCommand: gh,
    }).run({ cwd: makeSampleRepo(), args: { prNumber: 5, issue: 1 } });

    expect(result.success, JSON.stringify(result.error)).toBe(true);
    // The run's repository was asked for before the first step; nothing reached GitHub from the
    // sandbox; the hook merged, once, after validation, in the run's repository.
    expect(calls()).toEqual([
      ["repo", "view", "--json", "nameWithOwner"],
      ["pr", "merge", "5", "--repo", "o/r", "--squash", "--delete-branch"],
    ]);
    expect(result.boundary?.ok).toBe(true);
    const journal = readJournal(result.journalPath as string);
    const results = journal.flatMap((event) =>
      event.type === "tool_result" ? [event.result.content] : [],
    );
    expect(results[0]).toContain(
      "Recorded for the boundary hook: merge pull request #5 (squash, deleting the branch).",
    );
    expect(results[0]).toContain("[exit code 0]");
    expect(results[1]).toContain("issue #9 is not the run's: this run's issue is #1.");
    expect(results[1]).toContain("[exit code 1]");
    const order = journal
      .map((event) => event.type)
      .filter((type) => /^(verdict|boundary_hook|run_end)/.test(type));
    expect(order).toEqual(["verdict", "boundary_hook_start", "boundary_hook", "run_end"]);
    const hook = journal.find((event) => event.type === "boundary_hook");
    expect(hook?.type === "boundary_hook" && hook.actions).toEqual([
      expect.objectContaining({
        kind: "merge",
        pullRequest: "5",
        command: ["gh", "pr", "merge", "5", "--repo", "o/r", "--squash", "--delete-branch"],
        ok: true,
      }),
    ]);
  });
});

describe("the ledger on what the boundary hook closes", () => {
  it("the close of the run's issue carries the ledger table, and the verified commit gets climpt/verified", async () => {
    const { gh, calls } = recordingGh();
    const dir = writeTestAgent({
      name: "closing",
      entryStep: "closure.close",
      parameters: { issue: { type: "number", required: true, cli: "--issue" } },
      steps: {
        "closure.close": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
      registry: {
        validators: {
          clean: {
            type: "command",
            command: "git status --porcelain",
            successWhen: "empty",
            failurePattern: "failed",
          },
        },
        failurePatterns: { failed: { edition: "failed", fallback: "built-in" } },
        validationSteps: {
          "closure.close": {
            stepId: "closure.close",
            c2: "retry",
            c3: "close",
            validationConditions: [{ validator: "clean" }],
            onFailure: { action: "retry", maxAttempts: 2 },
          },
        },
      },
    });
    const fake = await startFakeAnthropic();
    closers.push(() => fake.close());
    fake.enqueue(
      reply.toolUse({ name: "Bash", input: { command: hidden("gh issue close 1") } }),
      intentReply("closing"),
    );
    const repo = makeSampleRepo();
    const result = await new StepFlowRunner(await loadAgentDefinition(dir), {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      ghCommand: gh,
    }).run({ cwd: repo, args: { issue: 1 } });

    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const sha = result.ledger?.at(-1)?.commit?.sha as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    const close = calls().find((argv) => argv[0] === "issue" && argv[1] === "close");
    expect(close?.slice(0, 5)).toEqual(["issue", "close", "1", "--repo", "o/r"]);
    const comment = close?.[close.indexOf("--comment") + 1] ?? "";
    expect(comment).toContain("| validator | command | result | commit | time |");
    expect(comment).toContain(
      `| clean | \`git status --porcelain\` | ✅ passed (exit 0) | \`${sha.slice(0, 12)}\` |`,
    );
    expect(comment).toContain(`Re-check: \`climpt verify ${result.runId}\``);
    // After the hook acted on GitHub: the status on the commit the validators passed on.
    expect(calls().at(-1)).toEqual([
      "api",
      "--method",
      "POST",
      `repos/o/r/statuses/${sha}`,
      "-f",
      "state=success",
      "-f",
      "context=climpt/verified",
      "-f",
      `description=1 validator passed (climpt verify ${result.runId})`,
    ]);
  });
});
