import { useTempDirs } from "@climpt/testing";
import { afterAll } from "vitest";

// Registered when a test file first imports this module, so it belongs to that file (vitest
// evaluates a file's imports afresh for each file): the folders go once its tests are done.
// After hooks run last-registered first, so a file's own afterAll still finds its folders.
const tempDir = useTempDirs(afterAll);

/** A fresh folder in the temporary directory, removed after the test file's last test. */
export function tempDirForFile(prefix: string): string {
  return tempDir(prefix);
}
