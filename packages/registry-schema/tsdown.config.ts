import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The JSON Schema files are shipped next to dist and exported by name; `customExports` keeps
// those entries when tsdown rewrites package.json `exports` from the build.
//
// Declarations come from a TypeScript program, not from isolated declarations like the other
// packages (tsdown.shared.ts): the exported valibot schemas' types are what valibot's generics
// infer from each schema's construction (objects of pipes of unions, dozens of lines each), and
// the raw types of agent.json and steps_registry.json are inferred from them. Written by hand,
// they would be a second copy of every schema that nothing keeps in step with the first.
export default defineConfig(
  packageBuildConfig({
    declarations: "checked",
    exports: {
      customExports: {
        "./agent.schema.json": "./agent.schema.json",
        "./steps_registry.schema.json": "./steps_registry.schema.json",
      },
    },
  }),
);
