import { describe, expect, it } from "vitest";
import { createExecaCommandRunner, DEFAULT_COMMAND_TIMEOUT_MS } from "./command-runner.ts";

const runner = createExecaCommandRunner();

describe("createExecaCommandRunner", () => {
  it("returns exit code and output without rejecting", async () => {
    const outcome = await runner("sh", ["-c", "echo out; echo err >&2; exit 4"], {
      cwd: process.cwd(),
    });
    expect(outcome).toEqual({ exitCode: 4, stdout: "out\n", stderr: "err\n" });
  });

  it("passes arguments as argv, never through a shell", async () => {
    const outcome = await runner(
      "node",
      ["-e", "console.log(process.argv[1])", "$(echo injected); ls"],
      {
        cwd: process.cwd(),
      },
    );
    expect(outcome.stdout).toBe("$(echo injected); ls\n");
  });

  it("reports a program that does not exist as exit 127", async () => {
    const outcome = await runner("climpt-no-such-program", [], { cwd: process.cwd() });
    expect(outcome.exitCode).toBe(127);
    expect(outcome.stderr).toContain("climpt-no-such-program");
  });

  it("an abort stops the command and everything it started", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    // Both sleeps outlast the test's hang limit: the call returns only if the abort stops the
    // shell and the sleep it left in the background (which holds the output pipes).
    const outcome = await runner("sh", ["-c", "sleep 3600 & sleep 3600; echo never"], {
      cwd: process.cwd(),
      signal: controller.signal,
    });
    expect(outcome.exitCode).not.toBe(0);
    expect(outcome.stdout).not.toContain("never");
  });

  it("bounds a command whose caller sets no timeout", async () => {
    expect(DEFAULT_COMMAND_TIMEOUT_MS).toBe(300_000);
    // A gh that never answers, as one on a dead network: the runner's own bound ends it.
    const bounded = createExecaCommandRunner({ defaultTimeoutMs: 300 });
    const outcome = await bounded("sh", ["-c", "sleep 600"], { cwd: process.cwd() });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.stderr).toContain("timed out after 300 ms");
  });
});
