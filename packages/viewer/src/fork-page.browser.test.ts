import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadAgentDefinition, type RunResult, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { type FakeReply, startFakeAnthropic } from "@climpt/testing";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  launchChromium,
  recordPageErrors,
  recordRequests,
  screenshotPath,
  UNTIL,
} from "./browser.test-helper.ts";
import { EXAMPLES, FIX_BUG, fixBugReplies } from "./runs.test-helper.ts";
import { renderRunsPage } from "./runs-page.ts";

// This file's hang limit (vitest.shared.ts): the demo, a fork of it and a browser; about 40 s at load 25.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 150_000 });

let browser: BrowserContext;
let source: RunResult;
let fork: RunResult;
let pageFile: string;
const parent = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-viewer-fork-")));

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

beforeAll(async () => {
  // The demo (its cassette), in a folder of its own so the fork's worktree (made next to the
  // repository) goes with it.
  const repo = path.join(parent, "repo");
  mkdirSync(repo);
  cpSync(path.join(EXAMPLES, "sample-repo"), repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "user.name", "climpt-test");
  git(repo, "config", "user.email", "test@climpt.invalid");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "textkit: initial");
  const loaded = await loadAgentDefinition(FIX_BUG);
  source = await new StepFlowRunner(loaded).run({
    args: { issue: 1 },
    cwd: repo,
    replay: path.join(EXAMPLES, "cassettes", "fix-bug.jsonl"),
  });
  // The fork, from the implement step: this model commits at once, so its first close-out
  // passes — where the source's was refused, the two diverge.
  const replies = await fixBugReplies();
  const fake = await startFakeAnthropic();
  try {
    fake.enqueue(...([3, 4, 9, 10, 11, 12, 13].map((index) => replies[index]) as FakeReply[]));
    fork = await new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
    }).run({ cwd: repo, fork: { runId: source.runId, at: "continuation.implement" } });
  } finally {
    await fake.close();
  }
  pageFile = path.join(parent, "runs.html");
  writeFileSync(
    pageFile,
    await renderRunsPage({
      journals: [source.journalPath as string, fork.journalPath as string],
      selectedRunId: fork.runId,
    }),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(parent, { recursive: true, force: true });
});

describe("the page of a run and its fork", () => {
  it("links the fork to its source and back, and shows both side by side where they diverge", async () => {
    expect(source.success).toBe(true);
    expect(fork.success, JSON.stringify(fork.error)).toBe(true);
    expect(fork.iterations).toBe(4);
    const page = await browser.newPage();
    const requests = recordRequests(page);
    const errors = recordPageErrors(page);
    await page.goto(pathToFileURL(pageFile).href);
    await page.locator("#run-head h2").waitFor();
    expect(await page.locator("#run-head h2").textContent()).toBe(fork.runId);

    // Where it came from, and the step it did not run, marked as its source's.
    await expect
      .poll(() => page.locator("#forked-from").textContent(), UNTIL)
      .toContain(`Forked from ${source.runId} at [2] continuation.implement`);
    expect(await page.locator("#step-inherited").textContent()).toContain(source.runId);

    // Side by side from iteration 2: the same until the close-out at 4, which the source's
    // git-clean validator refused and the fork's passed; the source went on to 7.
    const rows = page.locator("#fork-compare tbody tr");
    expect(await rows.count()).toBe(6);
    expect(await rows.nth(0).getAttribute("class")).toBe("same");
    const fourth = rows.nth(2);
    expect(await fourth.getAttribute("class")).toBe("diverged");
    expect(await fourth.textContent()).toContain("validation-retry:continuation.implement");
    expect(await fourth.textContent()).toContain("closing");
    expect(await rows.nth(5).textContent()).toContain("–");
    await page.locator("#lineage").screenshot({ path: screenshotPath("fork-compare.png") });

    // The link opens the source, whose page lists the fork.
    await page.locator(`#forked-from .run-link[data-run-id="${source.runId}"]`).click();
    await expect.poll(() => page.locator("#run-head h2").textContent(), UNTIL).toBe(source.runId);
    expect(await page.locator("#forks").textContent()).toContain(
      `${fork.runId} from [2] continuation.implement`,
    );
    await page.locator(`#forks .run-link[data-run-id="${fork.runId}"]`).click();
    await expect.poll(() => page.locator("#run-head h2").textContent(), UNTIL).toBe(fork.runId);

    expect(errors).toEqual([]);
    expect(requests.every((url) => url.startsWith("file:"))).toBe(true);
  });
});
