import { readFileSync } from "node:fs";
import { runFakeGh } from "./fake-gh/run-fake-gh.ts";

// The fake `gh` executable: the shim `installSimpleFakeGh` puts first on PATH runs this file.
const statePath = process.env.CLIMPT_FAKE_GH_STATE;
if (statePath === undefined || statePath === "") {
  process.stderr.write(
    "fake gh: CLIMPT_FAKE_GH_STATE is not set; installSimpleFakeGh() sets it in the env it returns.\n",
  );
  process.exit(1);
}
try {
  const output = runFakeGh(process.argv.slice(2), {
    statePath,
    ...(process.env.GH_REPO ? { envRepo: process.env.GH_REPO } : {}),
    cwd: process.cwd(),
    readStdin: () => readFileSync(0, "utf8"),
  });
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
} catch (error) {
  process.stderr.write(`fake gh: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
