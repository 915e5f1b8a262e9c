// Builders shared by this package's tests; not exported from the package.

import type { Problem, Registry, Result, Step } from "@climpt/model";
import { registryOf, stepOf } from "@climpt/model/testing";
import { useTempDirs } from "@climpt/testing";
import { afterEach } from "vitest";

export function registry(overrides: Partial<Registry> = {}): Registry {
  return registryOf([], overrides);
}

/** A work step whatever its id: prompt resolution does not depend on the kind. */
export function step(id: string, overrides: Partial<Step> = {}): Step {
  return stepOf(id, { kind: "work", kindSource: "inferred", ...overrides });
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

const temps = useTempDirs(afterEach, "c3l-resolver-");

/** A fresh temp folder, removed after the current test. */
export async function tempDir(): Promise<string> {
  return temps();
}
