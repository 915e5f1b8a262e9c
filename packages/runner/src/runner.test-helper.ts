import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createAnthropicClient, type ModelClient } from "@climpt/sdk-adapter";
import { loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

/** The monorepo root (examples live there). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const EXAMPLES = path.join(REPO_ROOT, "examples");

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "climpt-test",
  GIT_AUTHOR_EMAIL: "test@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt-test",
  GIT_COMMITTER_EMAIL: "test@climpt.invalid",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();
}

/** A fresh git repository holding a copy of the bundled sample repository, one commit. */
export function makeSampleRepo(): string {
  const dir = tempDirForFile("climpt-sample-");
  cpSync(path.join(EXAMPLES, "sample-repo"), dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  // The agent commits here through its Bash tool, which does not get GIT_ENV: give the
  // repository an identity of its own, so the tests pass where git has none configured.
  git(dir, "config", "user.name", "climpt-test");
  git(dir, "config", "user.email", "test@climpt.invalid");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "textkit: initial");
  return dir;
}

/** The fake Messages API serving a scripted model from examples/fake-models. */
export async function fakeModel(scriptName: string): Promise<{
  client: ModelClient;
  fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
}> {
  const fake = await startFakeAnthropic();
  const script = await loadFakeScript(path.join(EXAMPLES, "fake-models", `${scriptName}.json`));
  fake.enqueue(...script.replies);
  return {
    fake,
    client: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 2 }),
  };
}

/**
 * A fake `gh` whose issue never closes: `gh issue view` always reports it open, every other
 * command succeeds silently. Returns its path, for `RunnerOptions.ghCommand`.
 */
export function fakeGhThatNeverCloses(): string {
  const gh = path.join(tempDirForFile("climpt-gh-"), "gh");
  writeFileSync(
    gh,
    `#!/bin/sh\nif [ "$1 $2" = "issue view" ]; then echo '{"state":"OPEN","labels":[]}'; fi\n`,
  );
  chmodSync(gh, 0o755);
  return gh;
}
