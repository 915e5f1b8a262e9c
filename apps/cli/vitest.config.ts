import { availableParallelism } from "node:os";
import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  test: packageTestOptions("cli", {
    // The end-to-end tests spawn dist/bin.mjs: build it first when it is missing or stale. The
    // attack suite's report collects its rows across test files.
    globalSetup: ["./test/build-once.ts", "./test/sandbox-programs.ts", "./test/attack-report.ts"],
    // vitest's default on 2 cores is one file at a time. A CLI test file spends most of its time
    // waiting for the processes it spawns (the CLI, git, the sandbox), so two files at once keep
    // both cores busy in the last minutes of CI, when the CLI's tests are the only ones left.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  }),
});
