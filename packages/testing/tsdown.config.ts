import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The CLI is a second entry; `exports` stays `.` only (the bin reaches dist/cli.mjs directly).
export default defineConfig(
  packageBuildConfig({ entry: ["src/index.ts", "src/cli.ts"], exports: false }),
);
