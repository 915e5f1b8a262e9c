/**
 * The command that installs packages in a user's project, in the project's own package manager:
 * what a coded error about a missing optional package tells the user to run.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The lock files that say which package manager a project uses, nearest folder first. */
const LOCK_FILES: readonly (readonly [string, string])[] = [
  ["pnpm-lock.yaml", "pnpm add -D"],
  ["yarn.lock", "yarn add -D"],
  ["bun.lock", "bun add -d"],
  ["bun.lockb", "bun add -d"],
  ["package-lock.json", "npm i -D"],
];

/**
 * The command that adds `packages` as dev dependencies of the project around `cwd`: the package
 * manager of the nearest lock file, else the one that started climpt (npm_config_user_agent:
 * `npx`, `pnpm exec`), else npm.
 */
export function installCommand(
  packages: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const [file, command] of LOCK_FILES) {
      if (existsSync(path.join(dir, file))) return `${command} ${packages.join(" ")}`;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const agent = env.npm_config_user_agent ?? "";
  const byAgent = LOCK_FILES.find(([, command]) => agent.startsWith(command.split(" ")[0] ?? ""));
  return `${byAgent?.[1] ?? "npm i -D"} ${packages.join(" ")}`;
}
