import { EXTRACTOR_NAMES } from "@climpt/model";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { EXTRACTORS } from "./registry.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 12 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe("EXTRACTORS", () => {
  it("implements exactly the extractor names of the registry schema", () => {
    expect(Object.keys(EXTRACTORS).sort()).toEqual([...EXTRACTOR_NAMES].sort());
  });

  it("never throws and always returns JSON, whatever the output", async () => {
    const pure = EXTRACTOR_NAMES.filter((name) => name !== "generateDiff");
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.string({ unit: "binary", maxLength: 200 }),
        async (stdout, stderr) => {
          for (const name of pure) {
            const value = await EXTRACTORS[name]({ stdout, stderr, exitCode: 1, cwd: "/tmp/x" });
            expect(JSON.parse(JSON.stringify(value))).toEqual(value);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("passes stdout, stderr and the exit code through (trimmed at the end)", async () => {
    const input = { stdout: "out\n\n", stderr: "err\n", exitCode: 3, cwd: "/" };
    expect(await EXTRACTORS.stdout(input)).toBe("out");
    expect(await EXTRACTORS.stderr(input)).toBe("err");
    expect(await EXTRACTORS.exitCode(input)).toBe(3);
    expect(await EXTRACTORS.exitCode({ ...input, exitCode: null })).toBeNull();
  });
});
