import { ensureDebianPackages } from "@climpt/testing";

/** Claude Code runs its Bash tool in bubblewrap (with socat for its proxy); ripgrep serves its Grep. */
export function setup(): void {
  ensureDebianPackages(["bubblewrap", "socat", "ripgrep"], ["bwrap", "socat", "rg"]);
}
