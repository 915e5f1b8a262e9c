import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

// Registered when a test file first imports this module, so it belongs to that file (vitest
// evaluates a file's imports afresh for each file): the folders go once its tests are done.
// After hooks run last-registered first, so a file's own afterAll still finds its folders.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder in the temporary directory, removed after the test file's last test. */
export function tempDirForFile(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
