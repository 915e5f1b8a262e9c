import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bench, describe } from "vitest";
import { createToolbox } from "../toolbox.ts";
import { agentDefinition, step } from "../tools.test-helper.ts";

// What the sandbox adds to one Bash call: a private HOME and broker directory, the gh broker,
// the runtime's wrap (a ripgrep scan, bubblewrap's arguments) and bubblewrap's start. In a git
// repository also the staging git directory, the nested bubblewrap that shows it, and what the
// host takes back after the command (git-staging.ts, git-settle.ts).
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-sandbox-")));
const plain = path.join(dir, "plain");
const repo = path.join(dir, "repo");
mkdirSync(plain);
execFileSync("git", ["init", "-q", "-b", "main", repo]);
const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
git("config", "user.name", "bench");
git("config", "user.email", "bench@example.invalid");
for (let index = 0; index < 200; index++) {
  writeFileSync(path.join(repo, `file-${index}.txt`), `${index}\n`);
}
git("add", "-A");
git("commit", "-qm", "bench");
for (let index = 0; index < 50; index++) git("tag", `v${index}`);

const box = (cwd: string, sandbox: "required" | "off") =>
  createToolbox({
    cwd,
    agent: agentDefinition(),
    step: step("initial.issue", "work"),
    sandbox,
    onNotice: () => undefined,
  });
const options = { iterations: 20, warmupIterations: 2 };
let id = 0;
const run = (toolbox: ReturnType<typeof box>, command: string) => () =>
  toolbox.execute({ id: `b${++id}`, name: "Bash", input: { command } }).then(() => undefined);

describe("Bash `true`", () => {
  bench("in the sandbox", run(box(plain, "required"), "true"), options);
  bench("in the sandbox, in a git repository", run(box(repo, "required"), "true"), options);
  bench("unsandboxed", run(box(plain, "off"), "true"), options);
});

describe("Bash: a commit in a git repository", () => {
  const command = "date +%s%N > stamp.txt && git add stamp.txt && git commit -qm stamp";
  bench("in the sandbox", run(box(repo, "required"), command), options);
  bench("unsandboxed", run(box(repo, "off"), command), options);
});
