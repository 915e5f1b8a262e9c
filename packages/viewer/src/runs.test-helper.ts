import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadAgentDefinition, type RunResult, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import {
  type FakeAnthropic,
  type FakeReply,
  loadFakeScript,
  startFakeAnthropic,
} from "@climpt/testing";

/** The monorepo root: the examples live there. */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const EXAMPLES = path.join(REPO_ROOT, "examples");
export const FIX_BUG = path.join(EXAMPLES, "agents", "fix-bug");

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

/**
 * A fresh git copy of the bundled sample repository (as `pnpm demo` makes one), optionally with
 * the fix-bug agent under `.agent/` so the project's own agents lead to its journals.
 */
export function makeSampleRepo(options: { withAgent?: boolean } = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-viewer-")));
  cpSync(path.join(EXAMPLES, "sample-repo"), dir, { recursive: true });
  if (options.withAgent === true)
    cpSync(FIX_BUG, path.join(dir, ".agent", "fix-bug"), { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.name", "climpt-test");
  git(dir, "config", "user.email", "test@climpt.invalid");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

/** The demo: fix-bug on a fresh sample repository, replaying the recorded cassette. */
export async function runDemo(): Promise<RunResult & { readonly journalPath: string }> {
  const loaded = await loadAgentDefinition(FIX_BUG);
  const result = await new StepFlowRunner(loaded).run({
    args: { issue: 1 },
    cwd: makeSampleRepo(),
    replay: path.join(EXAMPLES, "cassettes", "fix-bug.jsonl"),
  });
  if (result.journalPath === null) throw new Error("the demo run wrote no journal");
  return { ...result, journalPath: result.journalPath };
}

/** The fix-bug script's replies (examples/fake-models/fix-bug.json). */
export async function fixBugReplies(): Promise<readonly FakeReply[]> {
  return (await loadFakeScript(path.join(EXAMPLES, "fake-models", "fix-bug.json"))).replies;
}

/**
 * A failed run: the model never commits, so the git-clean validator refuses every close-out
 * until the validation's `maxAttempts` ends the run (AGENT_VALIDATION_ABORT at closure.fix).
 */
export async function runNeverCommits(): Promise<RunResult & { readonly journalPath: string }> {
  const replies = await fixBugReplies();
  const upToClosure = replies.slice(0, 9);
  // The retry rounds: implement, verify and close out again, each time without committing.
  const round = [replies[5], replies[7], replies[8]] as FakeReply[];
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(...upToClosure, ...round, ...round, ...round, ...round);
    const loaded = await loadAgentDefinition(FIX_BUG);
    const result = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
    }).run({ args: { issue: 1 }, cwd: makeSampleRepo() });
    if (result.journalPath === null) throw new Error("the failed run wrote no journal");
    return { ...result, journalPath: result.journalPath };
  } finally {
    await fake.close();
  }
}

export type { FakeAnthropic };
