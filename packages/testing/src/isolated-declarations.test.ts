/**
 * A publishing build writes declarations with oxc's isolated declarations (tsdown.shared.ts), and
 * scripts/check-isolated-declarations.mjs (the end of `pnpm typecheck`) says beforehand which
 * exported declaration that build would refuse. These tests hold the check to that: on the real
 * workspace (every published source states its types), and on a small workspace written to a
 * temporary folder with one violation in a published file, one in a test file, one in a test
 * helper, and one in a package that keeps tsc's declarations.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedDeclarationProblems } from "../../../scripts/check-isolated-declarations.mjs";
import { useTempDirs } from "./temp-dirs.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tempDir = useTempDirs(afterEach, "climpt-isolated-declarations-");

const UNANNOTATED = "export function doubled(count = 1 + 1) {\n  return count * 2;\n}\n";

function writeWorkspace(files: Readonly<Record<string, string>>): string {
  const dir = tempDir();
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe("check-isolated-declarations", () => {
  it("finds nothing in the workspace's published sources", () => {
    expect(isolatedDeclarationProblems(root)).toEqual([]);
  });

  it("names the file, line and column of each declaration oxc cannot write alone", () => {
    const dir = writeWorkspace({
      "packages/a/tsdown.config.ts": "export default defineConfig(packageBuildConfig());\n",
      // A non-ASCII line first: oxc's offsets count bytes, the reported column counts characters.
      "packages/a/src/nested/doubled.ts": `// “doubled” …\n${UNANNOTATED}`,
      "packages/a/src/fine.ts":
        "export const LIMIT: number = 2 * 1024;\nexport const NAME = 'a';\n",
      "packages/a/src/doubled.test.ts": UNANNOTATED,
      "packages/a/src/doubled.test-helper.ts": UNANNOTATED,
      "packages/a/src/fixtures/doubled.ts": UNANNOTATED,
      "apps/b/tsdown.config.ts": "export default defineConfig(packageBuildConfig());\n",
      "apps/b/src/index.ts": "export const SIZE = Math.max(1, 2);\n",
      "packages/checked/tsdown.config.ts":
        'export default defineConfig(packageBuildConfig({ declarations: "checked" }));\n',
      "packages/checked/src/index.ts": UNANNOTATED,
    });
    expect(isolatedDeclarationProblems(dir)).toEqual([
      "packages/a/src/nested/doubled.ts:2:17: TS9007: Function must have an explicit return type annotation with --isolatedDeclarations.",
      "packages/a/src/nested/doubled.ts:2:25: TS9011: Parameter must have an explicit type annotation with --isolatedDeclarations.",
      "apps/b/src/index.ts:1:14: TS9010: Variable must have an explicit type annotation with --isolatedDeclarations.",
    ]);
  });
});
