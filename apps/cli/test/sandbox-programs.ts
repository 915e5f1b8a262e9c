import { ensureDebianPackages } from "@climpt/testing";

/** Runs drive real Bash tool calls, which run in the OS sandbox (bubblewrap, socat, ripgrep). */
export function setup(): void {
  ensureDebianPackages(["bubblewrap", "socat", "ripgrep"], ["bwrap", "socat", "rg"]);
}
