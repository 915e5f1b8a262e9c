import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// Two builds: the library for Node, and the page's browser client. The client (with dagre, a
// devDependency, bundled in) becomes one minified IIFE file that the library reads and inlines
// into every page, so a page needs nothing from the network.
export default defineConfig([
  packageBuildConfig(),
  {
    entry: { "viewer-client": "src/client/main.ts" },
    outDir: "dist/client",
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    dts: false,
    clean: false,
    sourcemap: false,
    exports: false,
    publint: false,
    deps: { onlyBundle: false },
  },
]);
