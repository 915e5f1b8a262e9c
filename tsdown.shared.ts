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
 * The package.json `exports` condition under which a workspace package resolves to its
 * TypeScript sources (tsconfig.base.json lists it in `customConditions`). `tsc` therefore reads
 * the sources of the packages a package imports and needs no declaration files; Node and vitest
 * do not know the condition and load `dist`. `publishConfig.exports` (which `pnpm pack` and
 * `pnpm publish` use) leaves it out.
 */
export const SOURCE_CONDITION = "climpt-source";

/**
 * Whether this build writes declaration files. Generating them is most of a build's time (the
 * first command spent 3½ of its 4 minutes on them), and nothing in the workspace reads them
 * (typecheck reads sources, see above), so only builds for publishing do: `pnpm build:publish`
 * (and `pnpm release`) set CLIMPT_DECLARATIONS=1.
 */
export const WITH_DECLARATIONS = process.env.CLIMPT_DECLARATIONS === "1";

/**
 * The build every publishable package shares: ESM only, one `.` entry, package.json `exports`
 * written from the entries (with the source condition above), declarations and publint when
 * building for publishing, and the build stamp above once everything is written.
 */
export function packageBuildConfig(overrides: UserConfig = {}): UserConfig {
  const { exports, ...rest } = overrides;
  return {
    entry: ["src/index.ts"],
    format: "esm",
    platform: "node",
    target: "node20.19",
    dts: WITH_DECLARATIONS,
    clean: true,
    sourcemap: true,
    exports:
      exports === false
        ? false
        : { devExports: SOURCE_CONDITION, ...(typeof exports === "object" ? exports : {}) },
    // publint checks `types` too, which points at a declaration file only a publishing build writes.
    publint: WITH_DECLARATIONS,
    logLevel: "warn",
    onSuccess: (config) => writeBuildStamp(config.outDir, config.pkg?.name),
    ...rest,
  };
}
