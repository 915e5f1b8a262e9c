import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  test: packageTestOptions("cli", {
    // The end-to-end tests spawn dist/bin.mjs: build it first when it is missing or stale. The
    // attack suite's report collects its rows across test files.
    globalSetup: ["./test/build-once.ts", "./test/sandbox-programs.ts", "./test/attack-report.ts"],
  }),
});
