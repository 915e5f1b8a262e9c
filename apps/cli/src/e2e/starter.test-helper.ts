import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { git } from "./project.test-helper.ts";
import { tempDir } from "./spawn-cli.test-helper.ts";

/**
 * A small Node project as a team would have it: `npm test` runs a real test of `src/sum.js`,
 * `npm run typecheck` and `npm run lint` real checks of their own (no dependencies to install),
 * node_modules ignored, one commit on main. `broken` makes the test fail.
 */
export function sampleProject(
  prefix: string,
  options: { broken?: boolean; dir?: string } = {},
): string {
  const cwd = options.dir ?? tempDir(prefix);
  mkdirSync(cwd, { recursive: true });
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(
      {
        name: "sample",
        private: true,
        scripts: {
          test: "node test/sum.test.js",
          typecheck: "node scripts/typecheck.js",
          lint: "node scripts/lint.js",
        },
      },
      null,
      2,
    )}\n`,
    ".gitignore": "node_modules/\n",
    "src/sum.js": options.broken
      ? "exports.sum = (a, b) => a - b;\n"
      : "exports.sum = (a, b) => a + b;\n",
    "test/sum.test.js": `const assert = require("node:assert");
const { sum } = require("../src/sum.js");
assert.strictEqual(sum(2, 3), 5, "sum(2, 3) should be 5");
console.log("ok 1 sum adds");
`,
    // Stand-ins for tsc and a linter: each reads the sources and exits non-zero on a finding.
    "scripts/typecheck.js": `const fs = require("node:fs");
const text = fs.readFileSync("src/sum.js", "utf8");
if (!text.includes("exports.sum")) { console.error("src/sum.js: sum is not exported"); process.exit(1); }
`,
    "scripts/lint.js": `const fs = require("node:fs");
const text = fs.readFileSync("src/sum.js", "utf8");
if (/console\\.log/.test(text)) { console.error("src/sum.js: no console.log in sources"); process.exit(1); }
`,
  };
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(cwd, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  git(cwd, "init", "-q", "-b", "main");
  git(cwd, "add", ".");
  git(cwd, "commit", "-qm", "A sample project");
  return cwd;
}
