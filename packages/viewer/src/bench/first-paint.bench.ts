import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { it } from "vitest";
import { launchChromium } from "../browser.test-helper.ts";
import { runLongRun } from "../long-run.test-helper.ts";
import { renderRunsPage } from "../runs-page.ts";

/** Page loads per size; the median is reported. */
const LOADS = 7;
const SIZES = [10, 100, 1000];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Time to first paint of a written page, for runs of 10, 100 and 1,000 steps: a real run of the
 * loop agent (runner, journal), the page `climpt view` writes for it, opened from disk in
 * Debian's Chromium. Prints a table; asserts nothing about speed.
 */
it("first paint of a written page", async () => {
  const browser = await launchChromium();
  const out = mkdtempSync(path.join(tmpdir(), "climpt-viewer-bench-"));
  const rows: string[] = [];
  try {
    for (const size of SIZES) {
      const run = await runLongRun(size);
      const file = path.join(out, `run-${size}.html`);
      const started = performance.now();
      writeFileSync(file, await renderRunsPage({ journals: [run.journalPath] }));
      const generateMs = performance.now() - started;
      const firstPaint: number[] = [];
      const firstContentful: number[] = [];
      const rendered: number[] = [];
      for (let load = 0; load < LOADS; load++) {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(file).href);
        await page.locator("#run-head h2").waitFor();
        const times = await page.evaluate(() => {
          const paint = (name: string) =>
            performance.getEntriesByType("paint").find((entry) => entry.name === name)?.startTime ??
            Number.NaN;
          const mark =
            performance.getEntriesByName("climpt-view-rendered")[0]?.startTime ?? Number.NaN;
          return { fp: paint("first-paint"), fcp: paint("first-contentful-paint"), rendered: mark };
        });
        firstPaint.push(times.fp);
        firstContentful.push(times.fcp);
        rendered.push(times.rendered);
        await page.close();
      }
      rows.push(
        `| ${size} | ${(statSync(run.journalPath).size / 1e6).toFixed(2)} | ${(statSync(file).size / 1e6).toFixed(2)} | ${generateMs.toFixed(0)} | ${median(rendered).toFixed(0)} | ${median(firstPaint).toFixed(0)} | ${median(firstContentful).toFixed(0)} |`,
      );
    }
  } finally {
    await browser.close();
  }
  console.log(
    [
      `climpt view, first paint — node ${process.version}, Chromium (Debian), median of ${LOADS} loads`,
      "",
      "| steps | journal MB | page MB | write page ms | run on page ms | first paint ms | first contentful paint ms |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...rows,
    ].join("\n"),
  );
});
