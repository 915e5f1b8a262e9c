import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  // Each end-to-end test starts a Claude Code process (about 250 MB, plus its sandbox): one test
  // file at a time keeps that to one process on a shared machine.
  test: packageTestOptions("claude-code", {
    fileParallelism: false,
    globalSetup: ["./vitest.global-setup.ts"],
  }),
});
