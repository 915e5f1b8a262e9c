import type { UserConfig } from "tsdown";

/**
 * The build every publishable package shares: ESM only, one `.` entry, declarations,
 * package.json `exports` written from the entries, and publint checking the result.
 */
export function packageBuildConfig(overrides: UserConfig = {}): UserConfig {
  return {
    entry: ["src/index.ts"],
    format: "esm",
    platform: "node",
    target: "node20.19",
    dts: true,
    clean: true,
    sourcemap: true,
    exports: true,
    publint: true,
    ...overrides,
  };
}
