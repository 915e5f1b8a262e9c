// Builders shared by this package's tests; not exported from the package.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Problem, Registry, Result, Step } from "@climpt/model";
import { afterEach } from "vitest";

export function registry(overrides: Partial<Registry> = {}): Registry {
  return {
    dialect: "gate",
    version: "1.0.0",
    c1: "steps",
    promptsBase: "prompts",
    schemasBase: "schemas",
    pathTemplate: "{c1}/{c2}/{c3}/f_{edition}_{adaptation}.md",
    pathTemplateNoAdaptation: "{c1}/{c2}/{c3}/f_{edition}.md",
    entryStepMapping: {},
    failurePatterns: {},
    validators: {},
    validationSteps: {},
    steps: {},
    ...overrides,
  };
}

export function step(id: string, overrides: Partial<Step> = {}): Step {
  const [c2 = "initial", c3 = "issue"] = id.split(".");
  return {
    id,
    kind: "work",
    kindSource: "inferred",
    prompt: { kind: "c3l", c1: "steps", c2, c3, edition: "default" },
    uvVariables: [],
    usesStdin: false,
    transitions: {},
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
    ...overrides,
  };
}

export function withSteps(...steps: Step[]): Registry {
  return registry({ steps: Object.fromEntries(steps.map((s) => [s.id, s])) });
}

/** The issues of a failed result; fails the test when the result is ok. */
export function issuesOf<T>(result: Result<T>): readonly Problem[] {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.issues;
}

/** The value of an ok result; fails the test with the issues otherwise. */
export function okValue<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues, null, 2)}`);
  return result.value;
}

/** A fresh temp folder, removed after the current test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "c3l-resolver-"));
  created.push(dir);
  return dir;
}

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
