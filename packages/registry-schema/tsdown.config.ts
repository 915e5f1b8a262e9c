import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The JSON Schema files are shipped next to dist and exported by name; `customExports` keeps
// those entries when tsdown rewrites package.json `exports` from the build.
export default defineConfig(
  packageBuildConfig({
    exports: {
      customExports: {
        "./agent.schema.json": "./agent.schema.json",
        "./steps_registry.schema.json": "./steps_registry.schema.json",
      },
    },
  }),
);
