import { defineConfig } from "tsdown";
import { packageBuildConfig } from "../../tsdown.shared.ts";

// The Anthropic SDK (and the OpenTelemetry API it imports) is bundled into dist: it is some 300
// ESM files, and resolving and reading them one by one was most of `climpt run`'s time before its
// first model request. One copy serves both the client and the error classes it is checked
// against, so `instanceof` holds. The declarations still import the SDK's types from the package.
export default defineConfig(
  packageBuildConfig({
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
