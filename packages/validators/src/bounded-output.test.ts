import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runValidator } from "./run-validator.ts";
import { validator } from "./validator.test-helper.ts";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "climpt-validator-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe("matches: with a deadline", () => {
  it("a catastrophic pattern ends with SR-VALID-110 and the event loop keeps running", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const result = await runValidator(
        validator(`printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'`, "matches:^(a+)+$"),
        {
          cwd,
          patternTimeoutMs: 500,
        },
      );
      expect(result.passed).toBe(false);
      expect(result.error).toMatchObject({
        code: "SR-VALID-110",
        message: expect.stringContaining("took longer than 500 ms"),
      });
      expect(result.recoverable).toBe(false);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
  });

  it("an ordinary pattern still decides", async () => {
    const pass = await runValidator(
      validator("echo 'Tests: 3 passed'", "matches:^Tests: \\d+ passed$"),
      { cwd },
    );
    expect(pass.passed).toBe(true);
    const fail = await runValidator(
      validator("echo 'Tests: 1 failed'", "matches:^Tests: \\d+ passed$"),
      { cwd },
    );
    expect(fail).toMatchObject({ passed: false, recoverable: true });
    expect(fail.error).toBeUndefined();
  });
});

describe("secrets in validator output", () => {
  it("are scrubbed from stdout and stderr before the verdict and the result", async () => {
    const token = "ghp_validatorSecret0123456789abcdefABCD";
    const result = await runValidator(
      validator('echo "token=$GH_TOKEN"; echo "$GH_TOKEN" >&2', "contains:token="),
      { cwd, env: { GH_TOKEN: token } },
    );
    expect(result.passed).toBe(true);
    expect(result.stdout).toBe("token=[REDACTED GH_TOKEN]\n");
    expect(result.stderr).toBe("[REDACTED GH_TOKEN]\n");
    expect(JSON.stringify(result)).not.toContain(token);
  });
});
