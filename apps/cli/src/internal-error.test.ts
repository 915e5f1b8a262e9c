import { describe, expect, it } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { INTERNAL_ERROR_CODE, reportInternalError } from "./internal-error.ts";

function streams() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    },
  };
}

describe("an internal error", () => {
  it("exits 3 (not 1, a failed run; not 2, a bad definition) with its code and stack on stderr", () => {
    const { out, io } = streams();
    const code = reportInternalError(new RangeError("Maximum call stack size exceeded"), io, {
      json: false,
    });
    expect(code).toBe(3);
    expect(code).not.toBe(EXIT.runFailed);
    expect(code).not.toBe(EXIT.usage);
    expect(out.stderr).toContain(`${INTERNAL_ERROR_CODE}: climpt hit an internal error`);
    expect(out.stderr).toContain("RangeError: Maximum call stack size exceeded");
    expect(out.stdout).toBe("");
  });

  it("under --json prints exactly one object on stdout", () => {
    const { out, io } = streams();
    reportInternalError(new Error("boom"), io, { json: true });
    const printed = JSON.parse(out.stdout) as { ok: boolean; error: { code: string } };
    expect(printed.ok).toBe(false);
    expect(printed.error.code).toBe(INTERNAL_ERROR_CODE);
  });

  it("scrubs the environment's secrets from the message and the stack it prints", () => {
    const { out, io } = streams();
    const token = "ghp_InternalErrorNeverPrinted0123456789";
    reportInternalError(new Error(`gh failed with GH_TOKEN=${token}`), io, {
      json: true,
      env: { GH_TOKEN: token },
    });
    expect(out.stderr).not.toContain(token);
    expect(out.stdout).not.toContain(token);
    expect(out.stderr).toContain("[REDACTED GH_TOKEN]");
  });
});
