import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The CLIs are more entries; `exports` stays `.` only (the bins reach dist/*.mjs directly).
export default defineConfig(
  packageBuildConfig({
    entry: ["src/index.ts", "src/cli.ts", "src/fake-gh-cli.ts"],
    exports: false,
  }),
);
