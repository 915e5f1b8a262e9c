import { existsSync } from "node:fs";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { findClaudeCodeBinary, platformPackages } from "./claude-code-binary.ts";

describe("findClaudeCodeBinary", () => {
  it("finds the binary of the SDK's platform package installed here", () => {
    const binary = findClaudeCodeBinary();
    expect(existsSync(binary)).toBe(true);
    expect(binary).toContain(`claude-agent-sdk-${process.platform}-${process.arch}`);
  });

  it("is AC-CC-001 with the fix for an executable setting that does not exist", () => {
    const missing = path.join(path.sep, "nowhere", "claude");
    let thrown: unknown;
    try {
      findClaudeCodeBinary({ executable: missing });
    } catch (error) {
      thrown = error;
    }
    expect(ClimptError.isInstance(thrown) && thrown.code).toBe("AC-CC-001");
    expect(String((thrown as Error).message)).toContain(missing);
  });

  it("names the glibc and musl packages on Linux, one package elsewhere", () => {
    expect(platformPackages("linux", "arm64")).toEqual([
      "@anthropic-ai/claude-agent-sdk-linux-arm64",
      "@anthropic-ai/claude-agent-sdk-linux-arm64-musl",
    ]);
    expect(platformPackages("darwin", "arm64")).toEqual([
      "@anthropic-ai/claude-agent-sdk-darwin-arm64",
    ]);
  });
});
