import { ensureDebianPackages } from "@climpt/testing";

/** Debian's Chromium: the browser tests drive it through playwright-core (no browser download). */
export const CHROMIUM = "/usr/bin/chromium";

/** Installs Debian's `chromium` package when it is missing, once before the browser tests. */
export function setup(): void {
  ensureDebianPackages(["chromium"], [CHROMIUM]);
}
