import { writeFileSync } from "node:fs";
import path from "node:path";
import { useTempDirs } from "@climpt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { runPatternJob } from "./pattern-worker.ts";

const tempDir = useTempDirs(afterEach, "climpt-pattern-");

describe("patterns run off the event loop with a deadline", () => {
  it("a catastrophic regular expression is stopped at its deadline while the event loop runs", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const outcome = await runPatternJob(
        { kind: "filter", source: "^(a+)+$", flags: "", items: [`${"a".repeat(40)}!`] },
        { timeoutMs: 1000 },
      );
      expect(outcome).toEqual({
        ok: false,
        reason: "timeout",
        message: "matching took longer than 1000 ms and was stopped.",
      });
      // The main thread kept running timers while the worker backtracked.
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it("aborting stops the worker", async () => {
    const controller = new AbortController();
    const pending = runPatternJob(
      { kind: "filter", source: "^(a+)+$", flags: "", items: [`${"a".repeat(40)}!`] },
      { timeoutMs: 600_000, signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, reason: "aborted" });
  });

  it("a filter keeps the indexes of the items that match", async () => {
    const outcome = await runPatternJob(
      { kind: "filter", source: "\\.ts$", flags: "", items: ["a.ts", "b.md", "c/d.ts"] },
      { timeoutMs: 600_000 },
    );
    expect(outcome).toEqual({ ok: true, value: [0, 2] });
  });

  it("a grep reports per file: matches with line numbers, too large, or skipped", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.txt"), "one\ntwo\nthree\n");
    writeFileSync(path.join(dir, "big.txt"), "x".repeat(200));
    writeFileSync(path.join(dir, "bin"), Buffer.from([0x74, 0, 0x74]));
    const outcome = await runPatternJob(
      {
        kind: "grep",
        source: "t",
        flags: "",
        files: ["a.txt", "big.txt", "bin", "missing"].map((name) => path.join(dir, name)),
        firstOnly: false,
        maxLines: 10,
        maxLineChars: 100,
        maxFileBytes: 100,
      },
      { timeoutMs: 600_000 },
    );
    expect(outcome).toEqual({
      ok: true,
      value: [
        {
          count: 2,
          lines: [
            [2, "two"],
            [3, "three"],
          ],
        },
        "large",
        "skip",
        "skip",
      ],
    });
  });
});
