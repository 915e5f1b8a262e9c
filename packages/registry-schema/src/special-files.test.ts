/**
 * A definition file replaced by a FIFO (or grown past any definition's size) is a coded problem
 * naming the file, reported at once. Without the non-blocking open the load would wait for a
 * writer that never comes: each test would end at its time limit instead.
 */
import { execFileSync } from "node:child_process";
import { rm, truncate, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { demoAgent, removeAgentFolders, writeAgentFolder } from "@climpt/testing";
import { afterAll, describe, expect, it } from "vitest";
import { inspectAgent } from "./load-agent.ts";
import { MAX_DEFINITION_FILE_BYTES } from "./read-json-file.ts";

afterAll(removeAgentFolders);

/** The demo agent with `file` (relative to its folder) replaced by a FIFO nobody writes to. */
async function withFifo(file: string): Promise<{ dir: string; target: string }> {
  const dir = await writeAgentFolder(demoAgent());
  const target = path.join(dir, file);
  await rm(target);
  execFileSync("mkfifo", [target]);
  return { dir, target };
}

describe("definition files that are not regular files", () => {
  for (const file of ["agent.json", "steps_registry.json", "schemas/issue.schema.json"]) {
    it(`${file} as a FIFO is SR-LOAD-014 naming the file`, async () => {
      const { dir, target } = await withFifo(file);
      const { problems } = await inspectAgent(dir);
      const fifo = problems.filter((problem) => problem.code === "SR-LOAD-014");
      expect(fifo.length, JSON.stringify(problems)).toBeGreaterThan(0);
      for (const problem of fifo) {
        expect(problem.message).toContain("FIFO");
        expect(problem.hint).toContain("regular JSON file");
        // The registry names a schema file; the others are named themselves.
        if (!file.startsWith("schemas/")) expect(problem.file).toBe(target);
        else expect(problem.message).toContain(path.basename(target));
      }
    });
  }

  it("a schema file a $ref names, as a FIFO, is SR-LOAD-014 at the ref", async () => {
    const files = demoAgent();
    const schema = files.schemas["issue.schema.json"] as { definitions: Record<string, object> };
    const first = Object.values(schema.definitions)[0] as { properties: Record<string, unknown> };
    first.properties.extra = { $ref: "extra.schema.json#/definitions/x" };
    const dir = await writeAgentFolder(files);
    execFileSync("mkfifo", [path.join(dir, "schemas", "extra.schema.json")]);
    const { problems } = await inspectAgent(dir);
    const problem = problems.find((entry) => entry.code === "SR-LOAD-014");
    expect(problem?.message, JSON.stringify(problems)).toContain("extra.schema.json");
  });

  it(`a registry larger than ${MAX_DEFINITION_FILE_BYTES} bytes is SR-LOAD-015, unread`, async () => {
    const dir = await writeAgentFolder(demoAgent());
    const registry = path.join(dir, "steps_registry.json");
    await writeFile(registry, "{}");
    // Sparse: the size is what fstat reports; nothing is written or read.
    await truncate(registry, MAX_DEFINITION_FILE_BYTES + 1);
    const { problems } = await inspectAgent(dir);
    const problem = problems.find((entry) => entry.code === "SR-LOAD-015");
    expect(problem?.file).toBe(registry);
    expect(problem?.message).toContain("MiB");
  });
});
