import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "runner",
    include: ["src/**/*.test.ts"],
    // Runs drive real git, real validators and a fake API server: give them room on 2 cores.
    testTimeout: 60_000,
  },
});
