import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { UserConfig } from "tsdown";

/**
 * The file a finished build writes last into `dist`. `clean` empties `dist` when a build starts,
 * so a build that was stopped (Ctrl-C, a failing task that made turbo stop the others) leaves no
 * stamp, and `climpt` refuses to load such a package with a message naming `pnpm build` instead
 * of failing later with an internal error (apps/cli/src/build-check.ts reads it).
 */
export const BUILD_STAMP = "build-complete.json";

async function writeBuildStamp(outDir: string, packageName: string | undefined): Promise<void> {
  await writeFile(
    path.join(outDir, BUILD_STAMP),
    `${JSON.stringify({ package: packageName ?? null })}\n`,
  );
}

/**
 * The build every publishable package shares: ESM only, one `.` entry, declarations,
 * package.json `exports` written from the entries, publint checking the result, and the build
 * stamp above once everything is written.
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
    onSuccess: (config) => writeBuildStamp(config.outDir, config.pkg?.name),
    ...overrides,
  };
}
