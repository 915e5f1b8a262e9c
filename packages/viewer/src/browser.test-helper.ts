import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium (test/chromium.global-setup.ts installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";

/** Where the test run writes its screenshots (ignored by git). */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "..", "test-output");

/**
 * Launches Debian's Chromium through playwright-core: no browser download, a fresh profile (a new
 * user-data-dir), and every background service that could reach the network switched off.
 * Closing the returned context closes the browser.
 */
export async function launchChromium(): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(tmpdir(), "climpt-viewer-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1500, height: 1700 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  // Waits for the page are hang detectors, like the tests' own limit, not speed checks.
  context.setDefaultTimeout(120_000);
  return context;
}

/** Every URL the page asks for, from the moment this is called. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

/** Errors thrown in the page: a test fails on any. */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, name);
}

/**
 * How long `expect.poll` waits for the page to show something: a hang detector, not a speed
 * check (vitest's default of one second fails on a busy machine).
 */
export const UNTIL = { timeout: 120_000, interval: 50 } as const;
