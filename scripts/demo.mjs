// The README's first command (`pnpm demo`): runs the bundled fix-bug agent on a fresh copy of the
// sample repository, offline, by replaying its recorded cassette through the real CLI. The agent
// analyses the failing tests, fixes src/slugify.js, verifies, is refused once by the git-clean
// validator (it forgot to commit), commits on the retry prompt, and completes.
// It prints the `climpt view` command that turns the run's journal into a page, and ends with the
// run's completion ledger (`climpt show <runId> --ledger`): what each validation attempt ran, on
// which commit, with what result, and the `climpt verify` command that re-checks it.
//   node scripts/demo.mjs [--json] [--agent code-improver | mcp-notes]
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { makeSampleRepo, ROOT } from "./sample-repo.mjs";

const json = process.argv.includes("--json");
const agentIndex = process.argv.indexOf("--agent");
const agent = agentIndex === -1 ? "fix-bug" : process.argv[agentIndex + 1];
const AGENT_ARGS = {
  "code-improver": ["--topic", "slugify output"],
  // Reads the repository through an MCP server; on replay no server is started.
  "mcp-notes": ["--task", "Write NOTES.md about this repository"],
};
const agentArgs = AGENT_ARGS[agent] ?? ["--issue", "1"];

const repo = makeSampleRepo();
if (!json) {
  process.stderr.write(
    `climpt demo: the ${agent} agent works on a fresh copy of examples/sample-repo\n`,
  );
  process.stderr.write(
    `  repository: ${repo}\n  model: replayed from examples/cassettes/${agent}.jsonl (offline)\n\n`,
  );
}
const run = spawnSync(
  process.execPath,
  [
    path.join(ROOT, "apps", "cli", "dist", "bin.mjs"),
    "run",
    path.join(ROOT, "examples", "agents", agent),
    "--cwd",
    repo,
    ...agentArgs,
    "--replay",
    path.join(ROOT, "examples", "cassettes", `${agent}.jsonl`),
    ...(json ? ["--json"] : []),
  ],
  // No key is needed to replay; make sure none is used.
  { stdio: "inherit", env: { ...process.env, ANTHROPIC_API_KEY: "" } },
);
if (!json && run.status === 0) {
  const git = (...args) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  const tests = spawnSync(process.execPath, ["test/run.js"], { cwd: repo, encoding: "utf8" });
  process.stderr.write(`\nThe repository afterwards:\n`);
  process.stderr.write(`  last commit: ${git("log", "--format=%s", "-1")}\n`);
  process.stderr.write(
    `  git status:  ${git("status", "--porcelain") === "" ? "clean" : "dirty"}\n`,
  );
  process.stderr.write(
    `  tests:       ${tests.stdout.match(/# pass \d+/)?.[0]}, ${tests.stdout.match(/# fail \d+/)?.[0]}\n`,
  );
}
if (!json) {
  // The run just made is the newest journal in the agent's logging folder (run ids sort by time):
  // fix-bug logs under tmp/climpt/logs/, code-improver under the runner's default tmp/logs/agents/.
  const journals = [];
  for (const logs of [
    ["tmp", "climpt", "logs"],
    ["tmp", "logs", "agents"],
  ]) {
    try {
      const dir = path.join(repo, ...logs, agent);
      journals.push(...readdirSync(dir).filter((name) => name.endsWith(".jsonl")));
    } catch {
      // This example does not log there.
    }
  }
  const latest = journals.sort().at(-1);
  if (latest !== undefined) {
    const runId = latest.slice(0, -".jsonl".length);
    process.stderr.write(
      `\nSee the run (its flow, a waterfall of every step and call, each step's prompt and output):\n` +
        `  pnpm climpt view ${runId} --cwd ${repo} --out ${path.join(repo, "run.html")}\n` +
        `  then open ${path.join(repo, "run.html")} in a browser, or follow runs live with: pnpm climpt view --serve --cwd ${repo}\n`,
    );
    // The proof of done, last: the ledger as `climpt show` prints it.
    const ledger = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "apps", "cli", "dist", "bin.mjs"),
        "show",
        runId,
        "--ledger",
        "--cwd",
        repo,
        "--agent-dir",
        path.join(ROOT, "examples", "agents"),
      ],
      { encoding: "utf8" },
    );
    if (ledger.status === 0) {
      // Its re-check line, spelled to run from this checkout.
      const recheck = `pnpm climpt verify ${runId} --cwd ${repo} --agent-dir examples/agents`;
      process.stderr.write(`\n${ledger.stdout.replace(`climpt verify ${runId}`, recheck)}`);
    }
  }
}
process.exit(run.status ?? 1);
