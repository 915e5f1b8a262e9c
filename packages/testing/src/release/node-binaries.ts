/**
 * Node binaries of other major versions for the release test, from npm's `node` package (its
 * install script installs `node-<platform>-<arch>@<version>` from the same registry, so nothing
 * but the npm registry is reached). Each major is installed once into a cache folder under the
 * workspace's `node_modules/.cache` and reused; a version that cannot be installed is an error
 * saying why, never a skipped check.
 */
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { runTool, ToolFailure, toolEnv } from "./run-tool.ts";
import { WORKSPACE_ROOT } from "./workspace-packages.ts";

/** Where the binaries are kept between runs. */
export const NODE_BINARY_CACHE: string = path.join(
  WORKSPACE_ROOT,
  "node_modules",
  ".cache",
  "climpt-node",
);

/** The path of a `node` of `major` (e.g. 24), installing it on first use. */
export async function nodeBinary(major: number): Promise<string> {
  const prefix = path.join(NODE_BINARY_CACHE, `node-${major}`);
  const binary = path.join(prefix, "node_modules", "node", "bin", "node");
  if (existsSync(binary)) return binary;
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  try {
    // The install script fetches the binary package: scripts must run here.
    await runTool(
      "npm",
      ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", `node@${major}`],
      { cwd: prefix, env: toolEnv() },
    );
  } catch (error) {
    await rm(prefix, { recursive: true, force: true });
    const why = error instanceof ToolFailure ? error.stderr.trim().slice(-2000) : String(error);
    throw new Error(
      `Node ${major} could not be installed from npm's "node" package (npm install node@${major}): ${why}`,
    );
  }
  if (!existsSync(binary)) {
    await rm(prefix, { recursive: true, force: true });
    throw new Error(`npm install node@${major} finished but left no binary at ${binary}.`);
  }
  return binary;
}
