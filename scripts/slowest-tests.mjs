// Prints the slowest test files of the last test run, read from the times every package's vitest
// run writes (vitest.test-times.ts, TEST_REPORT_FILE in vitest.shared.ts), so CI's output says where the test
// time goes. It reports; it never fails: `pnpm test` keeps the tests' own exit code.
//
// Usage: node scripts/slowest-tests.mjs [--count N] [--json] [--clear]
//   --count N  how many files to print (10)
//   --json     one JSON object per file, all of them, slowest first (for measuring)
//   --clear    remove the reports instead (before a run, so a package that did not run this time
//              is not reported from an earlier run; turbo restores a cached run's report)
// A file's time is its tests and hooks (the time it held a worker, import not counted); its slowest
// test is printed beside it because a file's hang limit has to fit that test.

import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const REPORT_FILE = join("tmp", "test-times.json");
const root = join(import.meta.dirname, "..");

function parseArguments(argv) {
  let count = 10;
  let json = false;
  let clear = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--count") count = Number(argv[++i]);
    else if (argv[i] === "--json") json = true;
    else if (argv[i] === "--clear") clear = true;
    else throw new Error(`slowest-tests: unknown argument ${argv[i]}`);
  }
  if (!Number.isInteger(count) || count < 1) throw new Error("slowest-tests: --count wants N ≥ 1");
  return { count, json, clear };
}

function packageDirs() {
  const dirs = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(join(groupDir, entry.name));
    }
  }
  return dirs;
}

function readFiles() {
  const files = [];
  for (const dir of packageDirs()) {
    const reportPath = join(dir, REPORT_FILE);
    if (!existsSync(reportPath)) continue;
    let report;
    try {
      report = JSON.parse(readFileSync(reportPath, "utf8"));
    } catch (error) {
      console.error(
        `slowest-tests: ${relative(root, reportPath)} is unreadable (${error.message})`,
      );
      continue;
    }
    for (const file of report.files ?? []) files.push({ ...file, file: relative(root, file.file) });
  }
  return files.sort((a, b) => b.ms - a.ms);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);

const { count, json, clear } = parseArguments(process.argv.slice(2));
const files = clear ? [] : readFiles();
if (clear) {
  for (const dir of packageDirs()) rmSync(join(dir, REPORT_FILE), { force: true });
} else if (json) {
  for (const file of files) console.log(JSON.stringify(file));
} else if (files.length === 0) {
  console.log("slowest-tests: no test reports found (tmp/test-times.json in each package)");
} else {
  const total = files.reduce((sum, file) => sum + file.ms, 0);
  console.log(`\nThe ${Math.min(count, files.length)} slowest of ${files.length} test files`);
  console.log(
    `(time in each file's tests and hooks; all files together ${seconds(total).trim()}):`,
  );
  console.log(`${"file".padStart(8)} ${"slowest test".padStart(12)}  tests  path`);
  for (const file of files.slice(0, count)) {
    const mark = file.state === "passed" ? "" : `  [${file.state}]`;
    console.log(
      `${seconds(file.ms)} ${seconds(file.slowestTestMs).padStart(12)}  ${String(file.tests).padStart(5)}  ${file.file}${mark}`,
    );
  }
}
