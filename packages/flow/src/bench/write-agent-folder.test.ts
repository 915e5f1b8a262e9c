import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadAgent } from "@climpt/registry-schema";
import { afterEach, describe, expect, it } from "vitest";
import { analyzeFlow } from "../analyze-flow.ts";
import { generateRegistry, REGISTRY_SHAPES } from "./generate-registry.ts";
import { writeAgentFolder } from "./write-agent-folder.ts";

const parents: string[] = [];
function parentDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "climpt-agent-folder-"));
  parents.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of parents.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("writeAgentFolder (the benchmarks' generated agents)", () => {
  it.each(REGISTRY_SHAPES)(
    "writes a %s registry that loads back to the same flow",
    async (shape) => {
      const registry = generateRegistry(40, shape, 5);
      const loaded = await loadAgent(writeAgentFolder(registry, parentDir(), { name: "chain" }));
      if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("\n"));
      const steps = loaded.value.registry.steps;
      expect(Object.keys(steps)).toEqual(Object.keys(registry.steps));
      for (const [id, step] of Object.entries(registry.steps)) {
        expect(steps[id]?.transitions, id).toEqual(step.transitions);
        expect(steps[id]?.gate?.allowedIntents, id).toEqual(step.gate?.allowedIntents);
        // The in-memory builder keeps the short key as the path; loading gives the full dot path.
        expect(
          steps[id]?.handoff.map((field) => field.key),
          id,
        ).toEqual(step.handoff.map((field) => field.key));
        expect(steps[id]?.gate?.handoffFields, id).toEqual(step.gate?.handoffFields);
        expect(steps[id]?.outputSchema, id).toBeDefined();
      }
      expect(Object.keys(loaded.value.registry.validators)).toEqual(
        Object.keys(registry.validators),
      );
      // The loaded flow is analysed like the generated one.
      const codes = (findings: ReturnType<typeof analyzeFlow>) =>
        findings.map((finding) => `${finding.code} ${finding.path}`).sort();
      expect(codes(analyzeFlow(loaded.value.registry))).toEqual(codes(analyzeFlow(registry)));
    },
  );

  it("leaves validation out and caps iterations when asked, for a runnable chain", async () => {
    const dir = writeAgentFolder(generateRegistry(10, "linear"), parentDir(), {
      name: "runnable",
      withValidation: false,
      maxIterations: 20,
    });
    const loaded = await loadAgent(dir);
    if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("\n"));
    expect(loaded.value.registry.validationSteps).toEqual({});
    expect(loaded.value.agent.limits.maxIterations).toBe(20);
    expect(loaded.value.registry.entryStep).toBe("initial.work");
  });
});
