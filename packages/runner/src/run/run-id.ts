import { randomBytes } from "node:crypto";

/**
 * A run id that sorts by start time and is safe as a file and branch name:
 * `20261122T003512Z-a1b2c3`.
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}
