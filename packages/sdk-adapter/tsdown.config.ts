import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The Anthropic SDK (and the OpenTelemetry API it imports) is bundled into dist: it is some 300
// ESM files, and resolving and reading them one by one was most of `climpt run`'s time before its
// first model request. One copy serves both the client and the error classes it is checked
// against, so `instanceof` holds. The declarations still import the SDK's types from the package.
//
// Comments and whitespace are stripped (names are kept, and the source map maps every line back):
// the bundle is 1.1 MB as written, mostly the SDK's doc comments, 0.6 MB stripped, and Node reads,
// decodes and pre-parses all of it before `climpt run`'s first request (about 50 ms of a 500 ms
// start on the 2-core VM; the README's Performance section).
export default defineConfig(
  packageBuildConfig({
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
    deps: {
      alwaysBundle: [/^@anthropic-ai\/sdk(\/|$)/, /^@opentelemetry\/api(\/|$)/],
      // What comes with them: the SDK's own dependencies.
      onlyBundle: [
        "@anthropic-ai/sdk",
        "@opentelemetry/api",
        "@stablelib/base64",
        "fast-sha256",
        "standardwebhooks",
      ],
    },
  }),
);
