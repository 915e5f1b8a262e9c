import { ensureDebianPackages } from "@climpt/testing";

/**
 * The Debian programs the end-to-end tests need, installed once before any test file runs:
 * runs drive real Bash tool calls in the OS sandbox (bubblewrap, socat, ripgrep), and the fleet
 * tests start a private redis-server.
 */
export function setup(): void {
  ensureDebianPackages(
    ["bubblewrap", "socat", "ripgrep", "redis-server"],
    ["bwrap", "socat", "rg", "redis-server"],
  );
}
