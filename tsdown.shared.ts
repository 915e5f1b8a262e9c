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
export const WITH_DECLARATIONS: boolean = process.env.CLIMPT_DECLARATIONS === "1";

/**
 * How a publishing build writes a package's declaration files.
 *
 * - `"isolated"` (the default): oxc's isolated declarations (rolldown-plugin-dts `oxc: true`),
 *   module by module from each file's own text, with no type program. A TypeScript program per
 *   package was most of a publishing build's CPU time (the whole build: 98 CPU-seconds with tsc
 *   declarations, 41 with oxc's, on the 2-core VM; the release test runs that build), and oxc
 *   writes the same files in milliseconds. What
 *   it needs from the sources: every exported declaration of every module the declarations reach
 *   carries its type where a reader can see it without inference from other files — an exported
 *   const's type annotation (unless its value is a literal, or an `as const` literal), a function's
 *   return type, a parameter's type (a default value other than a literal is not enough), a
 *   class property's type. A module that breaks this fails the publishing build with oxc's error,
 *   which names the file, line and column (TS9010 "Variable must have an explicit type
 *   annotation…" and its kin; oxc stops at the first one). `pnpm typecheck` says it first, for
 *   every non-test source of every package that uses this, with the same oxc, in under a second
 *   (scripts/check-isolated-declarations.mjs); a `--isolatedDeclarations` tsc option would hold
 *   the tests and configs of the one workspace program to it as well.
 * - `"checked"`: a TypeScript program per package (tsc's declaration emit), for a package whose
 *   exported types only the checker can spell (@climpt/registry-schema's valibot schemas).
 */
export type DeclarationSource = "isolated" | "checked";

export interface PackageBuildOptions extends UserConfig {
  /** Where the declarations of a publishing build come from (above). */
  readonly declarations?: DeclarationSource;
}

/**
 * The build every publishable package shares: ESM only, one `.` entry, package.json `exports`
 * written from the entries (with the source condition above), declarations and publint when
 * building for publishing, and the build stamp above once everything is written.
 */
export function packageBuildConfig(overrides: PackageBuildOptions = {}): UserConfig {
  const { exports, declarations = "isolated", ...rest } = overrides;
  return {
    entry: ["src/index.ts"],
    format: "esm",
    platform: "node",
    target: "node20.19",
    dts: WITH_DECLARATIONS && (declarations === "isolated" ? { oxc: true } : true),
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
