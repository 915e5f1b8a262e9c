import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { RunResult } from "@climpt/runner";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  launchChromium,
  recordPageErrors,
  recordRequests,
  screenshotPath,
  UNTIL,
} from "./browser.test-helper.ts";
import { runLongRun } from "./long-run.test-helper.ts";
import { runDemo, runNeverCommits } from "./runs.test-helper.ts";
import { renderRunsPage } from "./runs-page.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 28 s at load 13–25.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

type Run = RunResult & { readonly journalPath: string };

let browser: BrowserContext;
let demo: Run;
let failed: Run;
let pageFile: string;
const out = mkdtempSync(path.join(tmpdir(), "climpt-viewer-pages-"));

beforeAll(async () => {
  // Real runs: the demo replays its recorded cassette; the failed run goes through the real SDK
  // to the fake Messages API. Then one page holding both, as `climpt view` writes it.
  demo = await runDemo();
  failed = await runNeverCommits();
  pageFile = path.join(out, "runs.html");
  writeFileSync(
    pageFile,
    await renderRunsPage({ journals: [demo.journalPath, failed.journalPath] }),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens the page; returns it with every request it made and every error it threw. */
async function open(file: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const requests = recordRequests(page);
  const errors = recordPageErrors(page);
  await page.goto(pathToFileURL(file).href);
  await page.locator("#run-head h2").waitFor();
  return { page, requests, errors };
}

/** The waterfall's rows as a person reads them, top to bottom. */
async function timelineRows(page: Page): Promise<string[]> {
  return page.locator("#timeline .span-row").evaluateAll((rows) =>
    rows
      .map((row) => ({
        top: Number.parseFloat((row as HTMLElement).style.top),
        text: row.textContent ?? "",
      }))
      .sort((a, b) => a.top - b.top)
      .map((row) => row.text),
  );
}

describe("the page of a real run of the demo", () => {
  it("shows the run in the list, the path through the flow, the validator failure and its retry, and the prompts", async () => {
    expect(demo.success).toBe(true);
    const { page, requests, errors } = await open(pageFile);

    // The runs list: the demo run, completed, with its agent and iterations.
    const row = page.locator(`#runs [data-run-id="${demo.runId}"]`);
    await expect.poll(() => row.textContent(), UNTIL).toContain("completed");
    expect(await row.textContent()).toContain("fix-bug");
    expect(await page.locator("#run-head h2").textContent()).toBe(demo.runId);
    await page.locator("#runs").screenshot({ path: screenshotPath("runs-list.png") });

    // The flow: every step the run visited is highlighted, with how often; the validation retry
    // edge from the validators back to the implement step was taken once.
    const node = (key: string) => page.locator(`#flow [data-node="${key}"]`);
    for (const [key, visits] of [
      ["s:initial.analyze", "1"],
      ["s:continuation.implement", "2"],
      ["s:verification.verify", "2"],
      ["s:closure.fix", "2"],
    ] as const) {
      expect(await node(key).getAttribute("class")).toContain("visited");
      expect(await node(key).getAttribute("data-visits")).toBe(visits);
    }
    expect(await node("g:closure.fix").textContent()).toContain("2× checked · 1 failed");
    expect(await node("end").getAttribute("class")).toContain("visited");
    const retryEdge = page.locator(
      '#flow .edge[data-from="g:closure.fix"][data-to="s:continuation.implement"]',
    );
    expect(await retryEdge.getAttribute("class")).toContain("retry");
    expect(await retryEdge.textContent()).toContain("×1");
    await page.locator("#flow").screenshot({ path: screenshotPath("flow-graph.png") });

    // The timeline: the git-clean validator failed in iteration 4, and the next step is the
    // implement step running on the retry prompt.
    const rows = await timelineRows(page);
    const failure = rows.findIndex((text) => text.includes("validator git-clean: failed (exit 0)"));
    const retry = rows.findIndex((text) => text.includes("[5] continuation.implement"));
    expect(failure).toBeGreaterThan(0);
    expect(retry).toBeGreaterThan(failure);
    expect(rows[retry]).toContain("retry prompt");
    expect(
      await page.locator('#timeline .span-row[data-kind="validator"][data-status="error"]').count(),
    ).toBe(1);

    // The step panel: the retry step's prompt is the git-dirty retry prompt; its handoff diff
    // shows what it changed.
    await page.locator("#timeline .span-row", { hasText: "[5] continuation.implement" }).click();
    const panel = page.locator("#step-panel");
    expect(await panel.locator("h2").textContent()).toBe("[5] continuation.implement");
    const prompt = panel.locator('[data-section="prompt"]');
    expect(await prompt.textContent()).toContain("The close-out was refused");
    expect(await prompt.textContent()).toContain("- src/slugify.js");
    expect(
      await panel.locator('[data-section="handoff"] tr.diff-changed').first().textContent(),
    ).toContain("continuation.implement.description");
    expect(await panel.locator('[data-section="tools"]').textContent()).toContain("git add -A");

    // Clicking a step in the flow opens its latest execution: the analysis prompt from its file.
    await node("s:initial.analyze").click();
    expect(await panel.locator("h2").textContent()).toBe("[1] initial.analyze");
    expect(await prompt.textContent()).toContain("# Step: analyse (issue #1)");
    expect(await prompt.textContent()).toContain("prompts/steps/initial/analyze/f_default.md");

    // The close-out that failed validation: validator, exit code, output, and the retry prompt.
    await page.locator("#timeline .span-row", { hasText: "[4] closure.fix" }).click();
    const validators = panel.locator('[data-section="validators"]');
    expect(await validators.textContent()).toContain(
      "✗ git-clean · git status --porcelain · exit 0",
    );
    expect(await validators.textContent()).toContain("M src/slugify.js");
    expect(await panel.locator('[data-section="verdict"]').textContent()).toContain(
      "failure pattern git-dirty",
    );
    expect(await panel.locator('[data-section="retry-prompt"]').textContent()).toContain(
      "The close-out was refused",
    );
    await panel.screenshot({ path: screenshotPath("step-panel.png") });

    // The step that fixed the bug shows the file it changed, with its line counts.
    await page.locator("#timeline .span-row", { hasText: "[2] continuation.implement" }).click();
    const changed = panel.locator('[data-section="changes"]');
    expect(await changed.textContent()).toContain("Files changed (1)");
    expect(await changed.locator("tr").first().textContent()).toMatch(/^src\/slugify\.js\+\d+/);

    // The completion ledger: the refused attempt on the first commit, dirty; the passing one on
    // the commit the agent made, clean; each validator's command and result; the re-check line.
    const ledger = page.locator("#ledger");
    const attempts = ledger.locator(".ledger-attempt");
    expect(await attempts.count()).toBe(2);
    const [refused, passed] = demo.ledger ?? [];
    expect(await attempts.nth(0).getAttribute("data-commit")).toBe(refused?.commit?.sha);
    expect(await attempts.nth(0).textContent()).toContain("attempt 1 · refused");
    expect(await attempts.nth(0).textContent()).toContain("uncommitted changes");
    expect(await attempts.nth(0).textContent()).toContain("changedFiles: src/slugify.js");
    expect(await attempts.nth(1).getAttribute("data-commit")).toBe(passed?.commit?.sha);
    expect(await attempts.nth(1).textContent()).toContain(
      `${passed?.commit?.sha.slice(0, 12)} on main · clean tree`,
    );
    expect(await attempts.nth(1).locator("tr.passed").count()).toBe(2);
    expect(await attempts.nth(1).textContent()).toContain("node test/run.js");
    expect(await ledger.textContent()).toContain(`climpt verify ${demo.runId}`);
    await ledger.screenshot({ path: screenshotPath("ledger.png") });
    await page.screenshot({ path: screenshotPath("run-page.png"), fullPage: true });

    // Self-contained: the page asked for nothing but itself, and threw nothing.
    expect(requests).toEqual([pathToFileURL(pageFile).href]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a failed run: its error code and message, the step it failed at, and the End it never reached", async () => {
    expect(failed.error?.code).toBe("AGENT_VALIDATION_ABORT");
    const { page, errors } = await open(pageFile);
    await page.selectOption('[data-filter="status"]', "failed");
    const rows = page.locator("#runs .runs-rows .run-row");
    await expect.poll(() => rows.count(), UNTIL).toBe(1);
    expect(await rows.first().textContent()).toContain("AGENT_VALIDATION_ABORT");
    await rows.first().click();

    await expect.poll(() => page.locator("#run-head h2").textContent(), UNTIL).toBe(failed.runId);
    expect(await page.locator("#run-status").textContent()).toBe("failed");
    expect(await page.locator("#run-head").textContent()).toContain("onFailure.maxAttempts is 3");
    const closure = page.locator('#flow [data-node="s:closure.fix"]');
    expect(await closure.getAttribute("class")).toContain("failed");
    expect(await page.locator('#flow [data-node="end"]').getAttribute("class")).not.toContain(
      "visited",
    );
    expect(await page.locator('#flow [data-node="g:closure.fix"]').textContent()).toContain(
      "4 failed",
    );

    // The panel opens where it failed: the last close-out, refused by git-clean.
    const panel = page.locator("#step-panel");
    expect(await panel.locator("h2").textContent()).toBe(`[${failed.iterations}] closure.fix`);
    expect(await panel.locator('[data-section="validators"]').textContent()).toContain(
      "✗ git-clean",
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the runs table in a 1400 px window", () => {
  it("shows every column of a single row, neither clipped at the right nor under a scrollbar", async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(pathToFileURL(pageFile).href);
    await page.locator("#run-head h2").waitFor();
    await page.selectOption('[data-filter="status"]', "failed");
    const rows = page.locator("#runs .runs-rows .run-row");
    await expect.poll(() => rows.count(), UNTIL).toBe(1);
    const list = await page.locator("#runs .runs-rows").evaluate((element) => {
      const box = element.getBoundingClientRect();
      return {
        right: box.right,
        bottom: box.bottom,
        overflowsX: element.scrollWidth > element.clientWidth,
        overflowsY: element.scrollHeight > element.clientHeight,
      };
    });
    const lastCell = await rows.first().locator("span").last().boundingBox();
    const row = await rows.first().boundingBox();
    expect(list.overflowsX).toBe(false);
    expect(list.overflowsY).toBe(false);
    expect((lastCell?.x ?? 0) + (lastCell?.width ?? 0)).toBeLessThanOrEqual(list.right);
    expect((row?.y ?? 0) + (row?.height ?? 0)).toBeLessThanOrEqual(list.bottom + 0.5);
    await page.close();
  });
});

describe("a 1,000-step run", () => {
  it("opens, draws only the timeline rows in view, and reaches the last step by scrolling", async () => {
    const long = await runLongRun(1000);
    expect(long.success).toBe(true);
    const file = path.join(out, "long.html");
    writeFileSync(file, await renderRunsPage({ journals: [long.journalPath] }));
    const { page, errors } = await open(file);

    expect(await page.locator("#run-head").textContent()).toContain("1000 iterations");
    expect(
      await page.locator('#flow [data-node="s:initial.work"]').getAttribute("data-visits"),
    ).toBe("999");
    const axis = await page.locator("#timeline .section-head").textContent();
    // A step and a model call per iteration, and the boundary hook.
    expect(Number(/(\d+) spans/.exec(axis ?? "")?.[1])).toBeGreaterThanOrEqual(2000);
    // Virtualised: a screenful of rows exists, not two thousand.
    expect(await page.locator("#timeline .span-row").count()).toBeLessThan(120);

    await page.locator("#timeline .vlist").evaluate((list) => {
      list.scrollTop = list.scrollHeight;
    });
    await expect
      .poll(
        () => page.locator("#timeline .span-row", { hasText: "[1000] closure.done" }).count(),
        UNTIL,
      )
      .toBe(1);
    await page.locator("#timeline .span-row", { hasText: "[999] initial.work" }).click();
    expect(await page.locator("#step-panel h2").textContent()).toBe("[999] initial.work");
    expect(await page.locator('#step-panel [data-section="prompt"]').textContent()).toContain(
      "This is iteration 999.",
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
