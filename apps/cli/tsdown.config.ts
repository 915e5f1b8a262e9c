import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// Two entries: the library (`.`) and the executable. `exports` stays hand-written so the bin is
// not published as an import path; tsdown keeps bin.ts's `#!/usr/bin/env node` and marks it executable.
export default defineConfig(
  packageBuildConfig({ entry: ["src/index.ts", "src/bin.ts"], exports: false }),
);
