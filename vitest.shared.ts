import type { TestProjectInlineConfiguration } from "vitest/config";
import { TestTimesReporter } from "./vitest.test-times.ts";

/**
 * The time after which a test or hook counts as hung, for a file that sets no limit of its own.
 * It detects hangs; it does not measure speed. On a busy 2-core machine a test that takes 0.5 s
 * alone can take 20 s, so a limit close to a test's usual time fails it by chance (vitest's
 * default is 5 s). A unit test file's slowest test took at most 4.3 s at load 25 (six engineers'
 * builds and tests beside it): 30 s is seven times that. A file whose tests drive processes (the
 * end-to-end files, the browser tests, the resumes and batches) sets its own limit at the top
 * with `vi.setConfig({ testTimeout, hookTimeout })`, from its measured slowest test or hook with
 * a wide margin, so that a hung test says so in a minute or two rather than in five.
 */
export const HANG_LIMIT_MS = 30_000;

/** The longest a global teardown may take (it stops servers and reports; it does not test). */
const TEARDOWN_LIMIT_MS = 120_000;

type ProjectTestOptions = NonNullable<TestProjectInlineConfiguration["test"]>;

/**
 * Where each package's test run writes its files' times (vitest.test-times.ts), relative to the package. The root's
 * `scripts/slowest-tests.mjs` reads these after `pnpm test` to print the slowest test files, and
 * turbo keeps it as the test task's output so a cached run still has its report.
 */
export const TEST_REPORT_FILE = "tmp/test-times.json";

/**
 * Where the tests keep the machine's `NODE_EXTRA_CA_CERTS` while their processes run without it.
 * `@climpt/testing`'s release helpers (`toolEnv` in src/release/run-tool.ts, which names the same
 * variable) give it back to npm and pnpm, the only tools here that reach a server over TLS (the
 * public registry, through the machine's proxy).
 */
const STASHED_EXTRA_CA_CERTS = "CLIMPT_TEST_NODE_EXTRA_CA_CERTS";

/**
 * Takes `NODE_EXTRA_CA_CERTS` out of this process's environment, which the test workers and
 * every process they start inherit. Node 20 reads and parses that file when a process starts,
 * whether or not it will ever open a TLS connection (22 and 24 wait for the first one): ~48 ms of
 * CPU for Debian's bundle of ~150 certificates, in each of the thousands of processes the tests
 * start (the CLI, the fake gh, validators' `node` commands) that talk only to 127.0.0.1.
 */
function stashExtraCaCerts(): void {
  const certs = process.env.NODE_EXTRA_CA_CERTS;
  if (certs === undefined) return;
  process.env[STASHED_EXTRA_CA_CERTS] = certs;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

/** Options vitest reads only from the root config: see `packageTestOptions`. */
interface RootOnlyOptions {
  readonly teardownTimeout: number;
  readonly reporters: ["default", TestTimesReporter];
}

/**
 * The vitest project settings every package shares: its name, tests beside the code, and the hang
 * limit above for tests and hooks. A package adds what it needs (a global setup, benchmarks).
 * vitest types `teardownTimeout` and `reporters` as root-only options; they are returned beside
 * the project type because turbo runs each package's tests alone, where the package's config is
 * the root config. Each file's times are written beside the usual console output.
 */
export function packageTestOptions(
  name: string,
  extra: ProjectTestOptions = {},
): ProjectTestOptions & RootOnlyOptions {
  stashExtraCaCerts();
  return {
    name,
    // Type tests (`*.test-d.ts`, expectTypeOf) are not run here: each package's `typecheck` task
    // (tsc over `src`) checks them, once, where a broken one fails `pnpm typecheck`. vitest's own
    // typecheck mode ran tsc a second time inside the test task (7 of the router's 15 s).
    include: ["src/**/*.test.ts"],
    // One worker runs a package's files one after another and keeps the modules they import
    // (`isolate: false`). Isolated, each file paid for a new worker and a fresh import of the
    // package and everything below it: ~0.3 CPU-s a file (registry-schema's 27 files: 14.2 CPU-s
    // isolated, 5.6 not), and half of the runner's 40 s of imports. So a test file must leave
    // nothing behind that the next file would see: it restores process.env, closes its servers
    // and undoes a per-process cache it changed (vitest itself resets vi.setConfig and mocks
    // between files). The whole suite passed both in vitest's order and with the files shuffled;
    // @climpt/tools stays isolated (its vitest.config.ts says why).
    isolate: false,
    testTimeout: HANG_LIMIT_MS,
    hookTimeout: HANG_LIMIT_MS,
    teardownTimeout: TEARDOWN_LIMIT_MS,
    reporters: ["default", new TestTimesReporter(TEST_REPORT_FILE)],
    ...extra,
  };
}
