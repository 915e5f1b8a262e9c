/**
 * The launcher seam: where a validator's command runs is the caller's (the runner passes the OS
 * sandbox). A launcher here wraps the command in `env -i` with its own environment, as a sandbox
 * replaces the environment, and everything else — timeouts and the group kill, `successWhen`,
 * the output — works on what the launch runs.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandLauncher, LaunchRequest } from "./command-launcher.ts";
import { runValidator } from "./run-validator.ts";
import { validator } from "./validator.test-helper.ts";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "climpt-launcher-"));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

/** Records what it was asked and when it was released; runs the command with `env` only. */
function recordingLauncher(env: Record<string, string>) {
  const requests: { command: string; request: LaunchRequest }[] = [];
  const released: number[] = [];
  const launch: CommandLauncher = async (command, request) => {
    requests.push({ command, request });
    return {
      command: `echo launched >&2; ${command}`,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      release: async () => {
        released.push(Date.now());
      },
    };
  };
  return { launch, requests, released };
}

describe("runValidator with a launch", () => {
  it("runs what the launcher returns, with exactly its environment, and releases it once", async () => {
    const outer = "h26-outer-0123456789";
    process.env.H26_OUTER = outer;
    try {
      const { launch, requests, released } = recordingLauncher({ ONLY: "inside" });
      const result = await runValidator(
        validator('echo "only=$ONLY outer=$H26_OUTER"', "contains:only=inside", {
          env: ["NPM_TOKEN"],
        }),
        { cwd, launch },
      );
      expect(result.passed).toBe(true);
      expect(result.stdout).toBe("only=inside outer=\n");
      expect(result.stderr).toBe("launched\n");
      expect(requests).toEqual([
        {
          command: 'echo "only=$ONLY outer=$H26_OUTER"',
          request: { cwd, declaredEnv: ["NPM_TOKEN"] },
        },
      ]);
      expect(released).toHaveLength(1);
    } finally {
      delete process.env.H26_OUTER;
    }
  });

  it("a timeout still stops the launched command's whole group, and the launch is released", async () => {
    const { launch, released } = recordingLauncher({});
    const pidFile = join(cwd, "pid");
    const result = await runValidator(
      validator(`sleep 120 & echo $! > ${pidFile}; wait`, "exitCode:0", { timeoutMs: 500 }),
      { cwd, launch, killGraceMs: 200 },
    );
    expect(result.timedOut).toBe(true);
    expect(result.error?.code).toBe("SR-VALID-105");
    expect(released).toHaveLength(1);
    const pid = Number(readFileSync(pidFile, "utf8"));
    let alive = true;
    for (let attempt = 0; attempt < 600 && alive; attempt++) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        alive = stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
      } catch {
        alive = false;
      }
      if (alive) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(alive).toBe(false);
  });

  it("a launcher that cannot prepare the command: SR-VALID-111, not run, not recoverable", async () => {
    const launch: CommandLauncher = async () => {
      throw Object.assign(new Error("the OS sandbox cannot start here: bwrap not installed."), {
        hint: "Install bubblewrap.",
      });
    };
    const result = await runValidator(validator(`touch ${join(cwd, "ran")}`, "exitCode:0"), {
      cwd,
      launch,
    });
    expect(result).toMatchObject({ passed: false, exitCode: null, recoverable: false });
    expect(result.error).toMatchObject({
      code: "SR-VALID-111",
      message:
        'Validator "check" cannot run: the OS sandbox cannot start here: bwrap not installed.',
      hint: "Install bubblewrap.",
    });
  });
});
