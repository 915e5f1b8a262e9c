import { execFileSync } from "node:child_process";

/**
 * The sandbox tests need bubblewrap, socat and ripgrep (Debian packages). Installs the missing ones
 * when running as root (CI, dev containers); otherwise fails with the command to run.
 */
const PROGRAMS: Readonly<Record<string, string>> = {
  bwrap: "bubblewrap",
  socat: "socat",
  rg: "ripgrep",
};

function installed(program: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export function setup(): void {
  const missing = Object.entries(PROGRAMS)
    .filter(([program]) => !installed(program))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  const command = `apt-get install -y --no-install-recommends ${missing.join(" ")}`;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `The @climpt/tools tests run Bash commands in the OS sandbox, which needs ${missing.join(", ")}. Install them (Debian/Ubuntu: sudo ${command}) and run the tests again.`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("sh", ["-c", command], { stdio: "ignore", env });
  } catch {
    execFileSync("sh", ["-c", `apt-get update -qq && ${command}`], { stdio: "ignore", env });
  }
}
