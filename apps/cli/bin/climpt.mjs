#!/usr/bin/env node
// The `climpt` executable. It is a committed file, not a build output, so that a package manager
// can link it on install before anything is built (linking dist/bin.mjs failed on a fresh clone
// with "Failed to create bin"). It loads the build, or says which command makes it.
import { existsSync } from "node:fs";

const built = new URL("../dist/bin.mjs", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    [
      `climpt: AC-BUILD-001 the build of climpt is missing (no ${built.pathname}).`,
      "  Fix: run `pnpm build` at the root of the climpt checkout (or reinstall climpt), then try again.",
      "",
    ].join("\n"),
  );
  process.exitCode = 1;
} else {
  await import(built.href);
}
