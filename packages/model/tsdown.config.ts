import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// Two entries: the model itself, and `./testing`, the test-value builders other packages' tests use.
export default defineConfig(
  packageBuildConfig({ entry: { index: "src/index.ts", testing: "src/testing.ts" } }),
);
