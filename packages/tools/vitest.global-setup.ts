import { ensureDebianPackages } from "@climpt/testing";

/** The sandbox tests run Bash in bubblewrap; the sandbox runtime also needs socat and ripgrep. */
export function setup(): void {
  ensureDebianPackages(["bubblewrap", "socat", "ripgrep"], ["bwrap", "socat", "rg"]);
}
