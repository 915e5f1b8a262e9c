import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

// `pnpm --filter @climpt/viewer bench`: the first-paint benchmark, apart from the tests.
export default defineProject({
  test: packageTestOptions("viewer-bench", {
    include: ["src/bench/**/*.bench.ts"],
    globalSetup: ["./test/chromium.global-setup.ts"],
  }),
});
