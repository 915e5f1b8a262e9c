import { readFileSync } from "node:fs";
import path from "node:path";
import type { Step } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { runFlow } from "./custom-runner.example.ts";
import { seed003Linear } from "./test-registries.ts";

const intent = (action: string) => ({ next_action: { action } });

describe("the README's custom runner (gate-interpreter + router only)", () => {
  it("is the code the README shows", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "README.md"), "utf8");
    const file = readFileSync(path.join(import.meta.dirname, "custom-runner.example.ts"), "utf8");
    const section = readme.slice(readme.indexOf("## A custom runner on these two packages"));
    const block = section.slice(section.indexOf("```ts\n") + 6, section.indexOf("```\n", 6));
    expect(block).toBe(file);
  });

  it("walks seed 003's retry flow: a failed validation returns to the work step with the retry prompt", async () => {
    const seen: string[] = [];
    const script = [
      intent("next"),
      intent("handoff"),
      intent("closing"),
      intent("handoff"),
      intent("closing"),
    ];
    let validations = 0;
    const result = await runFlow(
      seed003Linear,
      "initial.issue",
      async (step: Step, _handoff, retry) => {
        seen.push(`${step.id}${retry ? " (retry prompt)" : ""}`);
        return script.shift();
      },
      async () => {
        validations += 1;
        return validations > 1;
      },
    );
    expect(result).toEqual({ success: true, iterations: 5 });
    expect(seen).toEqual([
      "initial.issue",
      "continuation.issue",
      "closure.issue",
      "continuation.issue (retry prompt)",
      "closure.issue",
    ]);
  });

  it("ends an abort as a failure", async () => {
    const result = await runFlow(
      seed003Linear,
      "initial.issue",
      async () => intent("abort"),
      async () => true,
    );
    expect(result.success).toBe(false);
  });
});
