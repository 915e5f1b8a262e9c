import { defineProject } from "vitest/config";
import { packageTestOptions } from "../../vitest.shared.ts";

export default defineProject({
  test: packageTestOptions("protocol", {
    // `vitest run` also type-checks the *.test-d.ts files (expectTypeOf) with tsc.
    typecheck: {
      enabled: true,
      include: ["src/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  }),
});
