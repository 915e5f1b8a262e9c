import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// Two builds: the library for Node, and the page's browser client. The client (with dagre, a
// devDependency, and the protocol's status vocabulary bundled in) becomes one minified IIFE file
// that the library reads and inlines into every page, so a page needs nothing from the network.
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
    // The page folds the journal in the browser with @climpt/protocol's status vocabulary: the
    // protocol (and the model it reads with) is bundled in too, not left to a global.
    deps: { onlyBundle: false, alwaysBundle: ["@climpt/protocol", "@climpt/model"] },
  },
]);
