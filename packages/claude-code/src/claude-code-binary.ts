import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ClimptError } from "@climpt/model";
import { CLAUDE_CODE_CODES } from "./codes.ts";

/** The SDK's platform packages that can carry the binary here, in the order the SDK tries them. */
export function platformPackages(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string[] {
  const base = `@anthropic-ai/claude-agent-sdk-${platform}-${arch}`;
  return platform === "linux" ? [base, `${base}-musl`] : [base];
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the Claude Code binary is: the `executable` setting when given, else the binary of the
 * SDK's platform package. Checked before a run starts, so a missing binary is one clear
 * `AC-CC-001` instead of a failed first step. Throws that error when there is none.
 */
export function findClaudeCodeBinary(options: { readonly executable?: string } = {}): string {
  if (options.executable !== undefined) {
    const file = path.resolve(options.executable);
    if (executable(file)) return file;
    throw new ClimptError({
      code: CLAUDE_CODE_CODES.executableMissing,
      message: `The Claude Code binary ${file} does not exist or is not executable.`,
      hint: "Point the executable setting at a claude binary, or leave it unset to use the one the SDK's platform package installs.",
    });
  }
  // Resolve from the SDK's own folder: the platform package is its optional dependency.
  const sdk = createRequire(import.meta.url).resolve("@anthropic-ai/claude-agent-sdk");
  const fromSdk = createRequire(sdk);
  const names = platformPackages();
  const binary = process.platform === "win32" ? "claude.exe" : "claude";
  for (const name of names) {
    let manifest: string;
    try {
      manifest = fromSdk.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    const file = path.join(path.dirname(manifest), binary);
    if (executable(file)) return file;
  }
  throw new ClimptError({
    code: CLAUDE_CODE_CODES.executableMissing,
    message: `The Claude Code binary is not installed: none of ${names.join(", ")} is next to @anthropic-ai/claude-agent-sdk.`,
    hint: `Reinstall with optional dependencies (npm install --include=optional, or pnpm install without --no-optional) so ${names[0]} comes with the SDK, or set the executable setting to a claude binary.`,
  });
}
