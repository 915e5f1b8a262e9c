import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's Chromium: the browser tests drive it through playwright-core (no browser download). */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Installs Debian's `chromium` package when it is missing, once before the browser tests. Only
 * root can install it; anyone else gets a message naming the package to install.
 */
export function setup(): void {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM}. Install Debian's package: sudo apt-get install -y chromium`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const result = spawnSync("apt-get", args, {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (result.status !== 0) {
      throw new Error(
        `apt-get ${args.join(" ")} failed (exit ${result.status}); the browser tests need Debian's chromium package:\n${result.stderr}`,
      );
    }
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing.`);
}
