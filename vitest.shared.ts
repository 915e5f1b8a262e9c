import type { TestProjectInlineConfiguration } from "vitest/config";

/**
 * The time after which a test or hook counts as hung. It detects hangs; it does not measure
 * speed. On a busy 2-core machine a test that takes 0.5 s alone can take 20 s, so a limit close
 * to a test's usual time fails it by chance (vitest's default is 5 s). Measured: the slowest
 * single tests (the orchestrator's and the fleet's batches, a resume after 1,000 steps) take
 * 10–40 s alone, 40–65 s beside four CPU-bound loops, and 110–160 s when a second test suite
 * runs beside those loops too. Speed is what the benchmarks (`pnpm bench`) measure.
 */
export const HANG_LIMIT_MS = 300_000;

type ProjectTestOptions = NonNullable<TestProjectInlineConfiguration["test"]>;

/**
 * The vitest project settings every package shares: its name, tests beside the code, and the hang
 * limit above for tests and hooks. A package adds what it needs (a global setup, benchmarks).
 * vitest types `teardownTimeout` as a root-only option; it is returned beside the project type
 * because turbo runs each package's tests alone, where the package's config is the root config.
 */
export function packageTestOptions(
  name: string,
  extra: ProjectTestOptions = {},
): ProjectTestOptions & { readonly teardownTimeout: number } {
  return {
    name,
    include: ["src/**/*.test.ts"],
    testTimeout: HANG_LIMIT_MS,
    hookTimeout: HANG_LIMIT_MS,
    teardownTimeout: HANG_LIMIT_MS,
    ...extra,
  };
}
