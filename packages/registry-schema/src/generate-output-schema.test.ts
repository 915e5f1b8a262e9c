import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { generateOutputSchema } from "./generate-output-schema.ts";
import { checkIntentEnum } from "./intent-enum-check.ts";
import { normalizeRegistry } from "./normalize-registry.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 11 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const typesFile = fileURLToPath(new URL("./fixtures/output-types/step-output.ts", import.meta.url));

describe("generateOutputSchema", () => {
  it("turns a TypeScript type with an intent union into the schema a step references", async () => {
    const result = await generateOutputSchema(typesFile, "ContinuationIssueOutput");
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value).toMatchObject({
      type: "object",
      description: "Output of continuation.issue.",
      additionalProperties: false,
      required: ["analysis", "files_changed", "next_action", "summary"],
      properties: {
        summary: { type: "string" },
        files_changed: { type: "array", items: { type: "string" } },
        analysis: { type: "object", required: ["understanding"] },
        next_action: {
          type: "object",
          required: ["action", "reason"],
          properties: {
            action: { type: "string", enum: ["handoff", "next", "repeat"] },
            reason: { type: "string", description: "Why the model chose this intent." },
          },
        },
      },
    });
    expect(JSON.stringify(result.value)).not.toContain("$ref");

    // The generated enum satisfies the registry's send/receive contract for that step.
    const registry = normalizeRegistry({
      entryStep: "continuation.issue",
      steps: {
        "continuation.issue": {
          c2: "continuation",
          c3: "issue",
          structuredGate: {
            allowedIntents: ["next", "repeat", "handoff"],
            intentSchemaRef: "#/properties/next_action/properties/action",
            intentField: "next_action.action",
          },
          transitions: { next: { target: "continuation.issue" } },
          outputSchemaRef: { file: "issue.schema.json", schema: "continuation.issue" },
        },
      },
    });
    if (!registry.ok) throw new Error(JSON.stringify(registry.issues));
    const step = registry.value.steps["continuation.issue"];
    if (step === undefined) throw new Error("step missing");
    expect(checkIntentEnum(step, result.value, {})).toEqual([]);
  });

  it("names the types the file declares when the requested one is missing", async () => {
    const result = await generateOutputSchema(typesFile, "ClosureOutput");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.code).toBe("SR-LOAD-011");
    expect(result.issues[0]?.hint).toContain("ContinuationIssueOutput");
  });

  it("reports a missing file", async () => {
    const result = await generateOutputSchema(`${typesFile}.missing`, "X");
    expect(result.ok ? undefined : result.issues[0]?.code).toBe("SR-LOAD-001");
  });
});
