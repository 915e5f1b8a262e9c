import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "completion-chain",
    include: ["src/**/*.test.ts"],
    // Tests spawn real git, sh and node processes; the machine is shared.
    testTimeout: 30_000,
  },
});
