import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A fresh folder in the temporary directory, by its real path (on a machine where the temporary
 * directory is a symbolic link, paths a program prints then match the ones a test expects). The
 * caller removes it; `useTempDirs` does that for a test file.
 */
export function makeTempDir(prefix = "climpt-test-"): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
}

/** Removes a folder and everything in it; a folder already gone is fine. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Temporary folders removed by the hook a test file passes: `afterEach` for folders of one test,
 * `afterAll` for folders a file's tests share. The hook is passed rather than imported so that this
 * package does not tie its users to one test runner's instance.
 *
 * ```ts
 * const tempDir = useTempDirs(afterEach, "climpt-runner-");
 * it("…", () => { const cwd = tempDir(); … });
 * ```
 */
export function useTempDirs(
  cleanUpAfter: (cleanUp: () => void) => void,
  defaultPrefix = "climpt-test-",
): (prefix?: string) => string {
  const made: string[] = [];
  cleanUpAfter(() => {
    for (const dir of made.splice(0)) removeTempDir(dir);
  });
  return (prefix = defaultPrefix) => {
    const dir = makeTempDir(prefix);
    made.push(dir);
    return dir;
  };
}
