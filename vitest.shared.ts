import type { TestProjectInlineConfiguration } from "vitest/config";

/**
 * The time after which a test or hook counts as hung. It detects hangs; it does not measure
 * speed. On a busy 2-core machine a test that takes 0.5 s alone can take 20 s, so a limit close
 * to a test's usual time fails it by chance (vitest's default is 5 s). Speed is what the
 * benchmarks (`pnpm bench`) measure.
 */
export const HANG_LIMIT_MS = 180_000;

type ProjectTestOptions = NonNullable<TestProjectInlineConfiguration["test"]>;

/**
 * The vitest project settings every package shares: its name, tests beside the code, and the hang
 * limit above for tests and hooks. A package adds what it needs (a global setup, benchmarks).
 */
export function packageTestOptions(
  name: string,
  extra: ProjectTestOptions = {},
): ProjectTestOptions {
  return {
    name,
    include: ["src/**/*.test.ts"],
    testTimeout: HANG_LIMIT_MS,
    hookTimeout: HANG_LIMIT_MS,
    // teardownTimeout is a root-only option in vitest 4: a project may not set it (TS2353).
    ...extra,
  };
}
