import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["src/**/*.test.ts"],
    // The end-to-end tests spawn dist/bin.mjs: build it first when it is missing or stale.
    globalSetup: ["./test/build-once.ts"],
    testTimeout: 30_000,
  },
});
