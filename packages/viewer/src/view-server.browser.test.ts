import path from "node:path";
import { loadAgentDefinition, type RunResult, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { type FakeAnthropic, startFakeAnthropic } from "@climpt/testing";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  launchChromium,
  recordPageErrors,
  recordRequests,
  screenshotPath,
  UNTIL,
} from "./browser.test-helper.ts";
import { type HeldReplies, startHeldReplies } from "./held-replies.test-helper.ts";
import { fixBugReplies, makeSampleRepo } from "./runs.test-helper.ts";
import { startViewServer, type ViewServer } from "./view-server.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 35 s at load 13–25.
vi.setConfig({ testTimeout: 150_000, hookTimeout: 150_000 });

let browser: BrowserContext;
let fake: FakeAnthropic;
let held: HeldReplies;
let server: ViewServer;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  fake.enqueue(...(await fixBugReplies()));
  held = await startHeldReplies(fake.url);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await held?.close();
  await fake?.close();
});

describe("climpt view --serve", () => {
  it("shows a run in progress and its current step advancing, without reloading the page", async () => {
    // A project with the fix-bug agent under .agent/: the server finds its journals itself.
    const repo = makeSampleRepo({ withAgent: true });
    server = await startViewServer({ cwd: repo, pollIntervalMs: 100 });
    const page = await browser.newPage();
    const requests = recordRequests(page);
    const errors = recordPageErrors(page);
    let loads = 0;
    page.on("load", () => {
      loads++;
    });
    await page.goto(server.url);
    await expect.poll(() => page.locator("#live-status").textContent(), UNTIL).toBe("● live");
    expect(await page.locator("#runs .runs-rows .run-row").count()).toBe(0);

    // The run starts; every model call waits until the test lets it through.
    const loaded = await loadAgentDefinition(path.join(repo, ".agent", "fix-bug"));
    const running: Promise<RunResult> = new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: held.url,
        maxRetries: 0,
      }),
    }).run({ args: { issue: 1 }, cwd: repo });

    // The first call is held: the run appears in the list and sits in its first step.
    await held.waitForPending(1);
    const current = page.locator("#current-step");
    await expect.poll(() => current.getAttribute("data-step-id"), UNTIL).toBe("initial.analyze");
    const runRow = page.locator("#runs .runs-rows .run-row").first();
    expect(await runRow.textContent()).toContain("running · initial.analyze");
    expect(
      await page.locator('#flow [data-node="s:initial.analyze"]').getAttribute("class"),
    ).toContain("current");
    expect(
      await page.locator('#timeline .span-row[data-status="running"]').count(),
    ).toBeGreaterThan(0);
    await page.evaluate(() => {
      (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
    });

    // The analysis takes three calls; the fourth is the implement step's first.
    for (let call = 1; call <= 3; call++) {
      held.release();
      await held.waitForPending(1);
    }
    await expect
      .poll(() => current.getAttribute("data-step-id"), UNTIL)
      .toBe("continuation.implement");
    expect(
      await page.locator('#flow [data-node="s:continuation.implement"]').getAttribute("class"),
    ).toContain("current");
    expect(
      await page.locator('#flow [data-node="s:initial.analyze"]').getAttribute("data-visits"),
    ).toBe("1");
    expect(await page.locator("#step-panel h2").textContent()).toBe("[2] continuation.implement");
    await page.screenshot({ path: screenshotPath("live-run.png"), fullPage: true });

    // Let the rest through: the page follows the run to its end.
    held.releaseAll();
    const result = await running;
    expect(result.success).toBe(true);
    await expect.poll(() => page.locator("#run-status").textContent(), UNTIL).toBe("completed");
    await expect
      .poll(() => page.locator('#flow [data-node="end"]').getAttribute("class"), UNTIL)
      .toContain("visited");
    expect(
      await page
        .locator('#flow [data-node="s:continuation.implement"]')
        .getAttribute("data-visits"),
    ).toBe("2");

    // Never reloaded, and every request went to the server it came from.
    expect(
      await page.evaluate(
        () => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage,
      ),
    ).toBe(true);
    expect(loads).toBe(1);
    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
