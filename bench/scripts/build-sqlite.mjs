// Builds better-sqlite3's native addon the first time `pnpm bench` needs it.
//
// better-sqlite3 is only used by the bench's LangGraph SqliteSaver row. Its install script
// downloads a prebuilt addon from GitHub and, where that is unreachable, compiles SQLite from
// source: two to three minutes on a 2-core machine. Running it at `pnpm install` put those
// minutes into the README's first command for everyone, so the workspace does not run it
// (pnpm-workspace.yaml lists it under ignoredBuiltDependencies) and this script runs it here,
// once: later runs find the addon and return at once. A failed build is not an error: the bench
// prints that row as not run, with the reason.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

function packageDir(require, name) {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

const fromBench = createRequire(new URL("../package.json", import.meta.url));
const saverDir = packageDir(fromBench, "@langchain/langgraph-checkpoint-sqlite");
const sqliteDir =
  saverDir === undefined
    ? undefined
    : packageDir(createRequire(path.join(saverDir, "package.json")), "better-sqlite3");

if (sqliteDir === undefined) {
  process.stderr.write(
    "bench: better-sqlite3 is not installed (an optional dependency); the SqliteSaver row will not run.\n",
  );
} else if (!existsSync(path.join(sqliteDir, "build", "Release", "better_sqlite3.node"))) {
  process.stderr.write(
    "bench: building better-sqlite3 for the SqliteSaver row (once; a few minutes when it compiles from source)…\n",
  );
  // The package's own install script: a prebuilt download, else node-gyp. npm puts node-gyp and
  // the package's dependencies' bins on PATH for it.
  const built = spawnSync("npm", ["run", "--silent", "install"], {
    cwd: sqliteDir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (built.status !== 0) {
    process.stderr.write(
      `bench: the better-sqlite3 build failed (exit ${built.status ?? built.signal}); the SqliteSaver row will not run. It needs python3, make and a C++ compiler.\n`,
    );
  }
}
