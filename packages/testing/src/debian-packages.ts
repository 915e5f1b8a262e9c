import { spawnSync } from "node:child_process";

/**
 * Installs the Debian packages a test suite needs (Chromium, bubblewrap, redis-server, …) when
 * the programs they provide are missing. Several suites run at once under turbo and each may call
 * this from its global setup, so apt-get waits for the dpkg lock (bounded, 10 minutes) instead of
 * failing on it, and `apt-get update` runs at most once per process, only when an install failed
 * without it (a fresh container has no package lists).
 */

/** How long apt-get waits for another apt-get to release the dpkg lock, in seconds. */
const DPKG_LOCK_TIMEOUT_S = 600;

let updated = false;

/** Whether `program` is on PATH (or, for an absolute path, exists and is executable). */
export function hasProgram(program: string): boolean {
  const probe = spawnSync("sh", ["-c", 'command -v "$1" >/dev/null 2>&1', "sh", program], {
    stdio: "ignore",
  });
  return probe.status === 0;
}

function aptGet(args: readonly string[]): { readonly ok: boolean; readonly output: string } {
  const result = spawnSync(
    "apt-get",
    ["-o", `DPkg::Lock::Timeout=${DPKG_LOCK_TIMEOUT_S}`, ...args],
    {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`;
  return { ok: result.status === 0, output };
}

/**
 * Makes sure every program in `binaries` is available, installing `packages` (Debian package
 * names) when one is missing. Throws with the packages to install when it cannot: not root, or
 * apt-get failed (its output is in the message).
 *
 * @param packages Debian packages that provide the programs, e.g. `["bubblewrap", "socat"]`.
 * @param binaries programs (names on PATH or absolute paths) that must exist afterwards.
 */
export function ensureDebianPackages(
  packages: readonly string[],
  binaries: readonly string[],
): void {
  if (binaries.every(hasProgram)) return;
  const command = `apt-get install -y --no-install-recommends ${packages.join(" ")}`;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `These tests need the Debian packages ${packages.join(", ")} (programs: ${binaries.join(", ")}). Install them (Debian/Ubuntu: sudo ${command}) and run the tests again.`,
    );
  }
  const install = ["install", "-y", "-qq", "--no-install-recommends", ...packages];
  let result = aptGet(install);
  if (!result.ok && !updated) {
    updated = true;
    const update = aptGet(["update", "-qq"]);
    if (!update.ok) {
      throw new Error(
        `apt-get update failed while installing ${packages.join(", ")} for the tests:\n${update.output}`,
      );
    }
    result = aptGet(install);
  }
  if (!result.ok) {
    throw new Error(
      `apt-get could not install ${packages.join(", ")} for the tests (run: ${command}):\n${result.output}`,
    );
  }
  const stillMissing = binaries.filter((binary) => !hasProgram(binary));
  if (stillMissing.length > 0) {
    throw new Error(
      `apt-get installed ${packages.join(", ")}, but ${stillMissing.join(", ")} is still missing.`,
    );
  }
}
