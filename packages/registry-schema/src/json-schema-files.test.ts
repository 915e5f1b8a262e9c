import { readFileSync } from "node:fs";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { agentFileSchema } from "./agent-file-schema.ts";
import { agentJsonSchema, registryJsonSchema } from "./json-schema-files.ts";
import { registryFileSchema } from "./registry-file-schema.ts";

const packageFile = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8");
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

describe("shipped JSON Schema files", () => {
  it.each([
    ["agent.schema.json", agentJsonSchema],
    ["steps_registry.schema.json", registryJsonSchema],
  ])(
    "%s is what the generator writes (run `pnpm --filter @climpt/registry-schema generate`)",
    (name, generate) => {
      expect(packageFile(name)).toBe(`${JSON.stringify(generate(), null, 2)}\n`);
    },
  );

  it("are exported by name from the package", () => {
    const manifest = JSON.parse(packageFile("package.json")) as {
      exports: Record<string, string>;
      files: string[];
    };
    expect(manifest.exports["./agent.schema.json"]).toBe("./agent.schema.json");
    expect(manifest.exports["./steps_registry.schema.json"]).toBe("./steps_registry.schema.json");
    expect(manifest.files).toContain("*.schema.json");
  });

  it("describe both shapes and both dialects, with the intents as an enum", () => {
    const registry = JSON.stringify(registryJsonSchema());
    for (const key of [
      "structuredGate",
      "transitions",
      "iterations",
      "onPass",
      "handoff",
      "entryStepMapping",
    ]) {
      expect(registry).toContain(`"${key}"`);
    }
    expect(registry).toContain(
      '"enum":["next","repeat","jump","handoff","closing","escalate","abort"]',
    );
    const agent = JSON.stringify(agentJsonSchema());
    for (const key of [
      "runner",
      "behavior",
      "completionType",
      "verdict",
      "boundaries",
      "parameters",
    ]) {
      expect(agent).toContain(`"${key}"`);
    }
  });
});

describe("the valibot file schemas accept the seeds' examples", () => {
  it.each([
    "seed-000/code-improver",
    "seed-002/handoff-flow",
    "seed-003/issue-agent",
    "seed-003/project-agent",
    "seed-003/iterator",
  ])("%s", (folder) => {
    expect(v.safeParse(agentFileSchema, fixture(`${folder}/agent.json`)).issues).toBeUndefined();
    expect(
      v.safeParse(registryFileSchema, fixture(`${folder}/steps_registry.json`)).issues,
    ).toBeUndefined();
  });
});
