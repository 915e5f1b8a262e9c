import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bench, describe } from "vitest";
import { createToolbox } from "../toolbox.ts";
import { agentDefinition, step } from "../tools.test-helper.ts";

// What the sandbox adds to one Bash call: a private HOME and broker directory, the gh broker,
// the runtime's wrap (a ripgrep scan, bubblewrap's arguments) and bubblewrap's start.
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-sandbox-")));
const box = (sandbox: "required" | "off") =>
  createToolbox({
    cwd: dir,
    agent: agentDefinition(),
    step: step("initial.issue", "work"),
    sandbox,
    onNotice: () => undefined,
  });
const sandboxed = box("required");
const unsandboxed = box("off");
let id = 0;

describe("Bash `true`", () => {
  bench(
    "in the sandbox",
    async () => {
      await sandboxed.execute({ id: `b${++id}`, name: "Bash", input: { command: "true" } });
    },
    { iterations: 20, warmupIterations: 2 },
  );
  bench(
    "unsandboxed",
    async () => {
      await unsandboxed.execute({ id: `b${++id}`, name: "Bash", input: { command: "true" } });
    },
    { iterations: 20, warmupIterations: 2 },
  );
});
