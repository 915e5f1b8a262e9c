// Fails when a non-test source file is longer than the project's limit (one concept per file,
// at most 500 lines). Run by `pnpm lint`. Test files (`*.test.ts`, `*.test-d.ts`), fixtures and
// cassettes are exempt: a test file grows with the cases it covers.
//
// Usage: node scripts/check-file-size.mjs [--max N] [directory]
// The files are the ones git tracks or would track (untracked but not ignored), so generated
// output (dist, node_modules) never counts.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const SOURCE = /\.(?:ts|mts|cts|tsx|js|mjs|cjs)$/;
const EXEMPT = /(?:\.test(?:-d)?\.[a-z]+$|(?:^|\/)(?:fixtures|cassettes|node_modules|dist)\/)/;

function parseArguments(argv) {
  let max = 500;
  let root = ".";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--max") {
      max = Number(argv[++i]);
      if (!Number.isInteger(max) || max < 1) {
        throw new Error(`--max needs a positive whole number, got ${argv[i]}`);
      }
    } else {
      root = arg;
    }
  }
  return { max, root };
}

function sourceFiles(root) {
  const listed = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", "-z"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  return listed.split("\0").filter((path) => SOURCE.test(path) && !EXEMPT.test(path));
}

function lineCount(text) {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

const { max, root } = parseArguments(process.argv.slice(2));
const tooLong = [];
for (const path of sourceFiles(root)) {
  let text;
  try {
    text = readFileSync(join(root, path), "utf8");
  } catch {
    continue; // deleted in the work tree but still in the index
  }
  const lines = lineCount(text);
  if (lines > max) tooLong.push({ path, lines });
}

if (tooLong.length > 0) {
  tooLong.sort((a, b) => b.lines - a.lines);
  for (const { path, lines } of tooLong) {
    console.error(`FILE-SIZE-001 ${path}: ${lines} lines, more than ${max}.`);
  }
  console.error(
    `Split ${tooLong.length === 1 ? "this file" : "these files"} into files of one concept each (at most ${max} lines); test files are exempt.`,
  );
  process.exit(1);
}
console.log(`check-file-size: every non-test source file has at most ${max} lines.`);
