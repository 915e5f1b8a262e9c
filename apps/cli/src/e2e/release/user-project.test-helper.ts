/**
 * A user's project for the release test: a git repository outside the monorepo whose
 * `.gitignore` lists `node_modules/`, with climpt installed from the local registry by the
 * install line of the root README's "In another repository" section.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  createRegistryProject,
  type LocalRegistry,
  type PackageManager,
  type RegistryProject,
  runTool,
  WORKSPACE_ROOT,
} from "@climpt/testing";
import { GIT_IDENTITY } from "../project.test-helper.ts";

/** The README section whose command block the test runs. */
export const README_SECTION = "## In another repository";

/** The lines of the first `sh` block of the README's "In another repository" section. */
export function readmeCommands(): string[] {
  const readme = readFileSync(path.join(WORKSPACE_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(README_SECTION));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!readme.includes(README_SECTION) || block === undefined) {
    throw new Error(`README.md has no sh block under "${README_SECTION}".`);
  }
  return block.split("\n").filter((line) => line.trim() !== "");
}

/**
 * The README's install line for `manager`: the line itself for npm, the alternative its comment
 * gives (`# or: pnpm add -D climpt`) for pnpm.
 */
export function readmeInstallLine(manager: PackageManager): string {
  const [line = ""] = readmeCommands();
  const [command = "", comment = ""] = line.split("#");
  if (manager === "npm") return command.trim();
  const alternative = /or:\s*(.*)$/.exec(comment)?.[1]?.trim();
  if (alternative === undefined || !alternative.startsWith("pnpm ")) {
    throw new Error(`The README's install line gives no pnpm alternative: ${line}`);
  }
  return alternative;
}

/** A new project (remembered in `made` for removal) with climpt installed by the README's line. */
export async function installedUserProject(
  registry: LocalRegistry,
  manager: PackageManager,
  made: RegistryProject[],
): Promise<RegistryProject> {
  const project = await createRegistryProject(registry, manager);
  made.push(project);
  writeFileSync(path.join(project.dir, ".gitignore"), "node_modules/\n");
  const env = { ...project.env, ...GIT_IDENTITY };
  await runTool("git", ["init", "-q", "-b", "main"], { cwd: project.dir, env });
  await runTool("sh", ["-c", readmeInstallLine(manager)], { cwd: project.dir, env });
  return project;
}
