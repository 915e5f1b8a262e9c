import { describe, expect, it } from "vitest";
import { checkValidatorBaselines } from "./baseline-checks.ts";
import { normalizeRegistry } from "./normalize-registry.ts";

function registryWith(validators: Record<string, unknown>) {
  const result = normalizeRegistry(
    {
      entryStep: "closure.a",
      steps: { "closure.a": { stepId: "closure.a", c2: "closure", c3: "x" } },
      validators,
      failurePatterns: { f: { edition: "failed" } },
    },
    { file: "steps_registry.json" },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

describe("checkValidatorBaselines", () => {
  it("warns where baseline compare has no extractor that names failures (SR-VALID-013), and nowhere else", () => {
    const registry = registryWith({
      clean: {
        command: "git status --porcelain",
        successWhen: "empty",
        failurePattern: "f",
        extractParams: { changedFiles: "parseChangedFiles" },
        baseline: "compare",
      },
      tests: {
        command: "npm test",
        successWhen: "exitCode:0",
        failurePattern: "f",
        extractParams: { results: "parseTestOutput" },
        baseline: "compare",
      },
      lint: { command: "npm run lint", successWhen: "exitCode:0", failurePattern: "f" },
    });
    const problems = checkValidatorBaselines(registry, { registryFile: "steps_registry.json" });
    expect(problems.map((problem) => [problem.code, problem.severity, problem.path])).toEqual([
      ["SR-VALID-013", "warning", "$.validators.clean.baseline"],
    ]);
    expect(problems[0]?.file).toBe("steps_registry.json");
    expect(problems[0]?.hint).toContain("parseTestOutput");
  });
});
