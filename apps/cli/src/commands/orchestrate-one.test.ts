import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { payloadOf } from "./orchestrate-one.ts";

const dir = mkdtempSync(path.join(tmpdir(), "climpt-payload-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("--payload @file", () => {
  it("reads a JSON file", async () => {
    writeFileSync(path.join(dir, "payload.json"), '{"prNumber": 7}');
    expect(await payloadOf("@payload.json", dir)).toEqual({ ok: true, value: { prNumber: 7 } });
  });

  it("refuses a FIFO at once with a usage error, instead of waiting for a writer", async () => {
    execFileSync("mkfifo", [path.join(dir, "fifo.json")]);
    const outcome = await payloadOf("@fifo.json", dir);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.problem.message).toContain("is a FIFO, not a regular file");
  });
});
