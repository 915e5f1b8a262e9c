import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "validators",
    include: ["src/**/*.test.ts"],
    // Several suites spawn real processes (git, sh); give them room on a shared machine.
    testTimeout: 30_000,
  },
});
