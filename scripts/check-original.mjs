// `node scripts/check-original.mjs <checkout of tettuan/climpt> [--deno PATH] [--keep]`
//
// Runs the original runtime's own files, unchanged, through this climpt: its seven agent folders
// one by one (`climpt run`), its `.agent/workflow.json` over a batch of four issues (`climpt
// orchestrate`), and its `.agent/workflow-merge.json` for one issue with a payload. The model is
// the fake Messages API answering from scripted replies (check-original/plans.mjs), GitHub is the
// fake gh (@climpt/testing). Prints one line per agent and per issue: how it ends here, how the
// original's code ends with the same replies, and — where they differ — the first failing tool
// call of the run. Not part of CI (docs/compatibility.md says when to run it).
//
// Build first (`pnpm build`). The original's files are copied into a scratch repository outside
// this one and removed at the end (`--keep` keeps it). Its merger runs `deno`: give a Deno binary
// with `--deno`, e.g. one installed outside the repository with
//   npm install --prefix /tmp/deno-check deno@2   →   --deno /tmp/deno-check/node_modules/.bin/deno
// (its merge script imports jsr:@std/cli, so offline it stops there; the line says so).
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installFakeGh, startFakeAnthropic } from "@climpt/testing";
import { BATCH, SINGLE_RUNS } from "./check-original/plans.mjs";
import { scriptedModel } from "./check-original/scripted-model.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLI = path.join(ROOT, "apps", "cli", "dist", "bin.mjs");
const args = process.argv.slice(2);
const original = args.find(
  (arg) => !arg.startsWith("--") && args[args.indexOf(arg) - 1] !== "--deno",
);
const deno = args.includes("--deno") ? path.resolve(args[args.indexOf("--deno") + 1] ?? "") : null;
if (original === undefined || !existsSync(path.join(original, ".agent", "workflow.json"))) {
  process.stderr.write(
    "usage: node scripts/check-original.mjs <checkout of tettuan/climpt> [--deno PATH] [--keep]\n",
  );
  process.exit(2);
}
if (!existsSync(CLI)) {
  process.stderr.write("Build first: pnpm build (apps/cli/dist/bin.mjs is missing).\n");
  process.exit(2);
}

const IDENTITY = {
  GIT_AUTHOR_NAME: "check",
  GIT_AUTHOR_EMAIL: "check@climpt.invalid",
  GIT_COMMITTER_NAME: "check",
  GIT_COMMITTER_EMAIL: "check@climpt.invalid",
};
const git = (cwd, ...rest) =>
  execFileSync("git", rest, { cwd, encoding: "utf8", env: { ...process.env, ...IDENTITY } }).trim();
const scratch = mkdtempSync(path.join(tmpdir(), "climpt-check-original-"));

/** A repository holding the original's `.agent/`, its shared schemas and scripts, one commit. */
function checkout(name) {
  const repo = path.join(scratch, name, "repo");
  mkdirSync(repo, { recursive: true });
  cpSync(path.join(original, ".agent"), path.join(repo, ".agent"), { recursive: true });
  for (const part of [["agents", "common"], ["agents", "scripts"], ["deno.json"]]) {
    const from = path.join(original, ...part);
    if (existsSync(from)) cpSync(from, path.join(repo, ...part), { recursive: true });
  }
  mkdirSync(path.join(repo, "emits"), { recursive: true });
  writeFileSync(path.join(repo, "emits", "8.json"), `${JSON.stringify(verdict, null, 2)}\n`);
  writeFileSync(path.join(repo, ".gitignore"), "tmp/\n");
  git(repo, "init", "-q", "-b", "main");
  // The agents commit from their sandboxed Bash, which does not get this process's environment.
  git(repo, "config", "user.name", IDENTITY.GIT_AUTHOR_NAME);
  git(repo, "config", "user.email", IDENTITY.GIT_AUTHOR_EMAIL);
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "the original's agents");
  // The remote its reviewer's and facilitator's validators look at (branch pushed, merged into
  // origin/develop).
  const origin = path.join(scratch, name, "origin.git");
  git(path.dirname(repo), "init", "-q", "--bare", origin);
  git(repo, "remote", "add", "origin", origin);
  git(repo, "push", "-q", "origin", "main", "main:develop");
  git(repo, "fetch", "-q", "origin");
  return repo;
}

// The reviewer's verdict for PR 8, in the original's verdict schema (what its handoff would emit).
const verdict = {
  schema_version: "1.0.0",
  pr_number: 8,
  base_branch: "main",
  verdict: "approved",
  merge_method: "squash",
  delete_branch: true,
  reviewer_summary: "ok",
  evaluated_at: new Date(0).toISOString(),
  reviewer_agent_version: "1.12.0",
  ci_required: false,
  prNumber: 8,
  verdictPath: "emits/8.json",
};

/** A fake gh of its own for each part, so one part's issues never enter another's batch. */
function fakeGh(name, issues) {
  const gh = installFakeGh(
    { repo: "acme/widgets", issues },
    { dir: path.join(scratch, `gh-${name}`) },
  );
  gh.update((state) => {
    state.repos["acme/widgets"].pullRequests.push({
      number: 8,
      title: "Feature",
      body: "",
      state: "OPEN",
      headRefName: "feature",
      baseRefName: "main",
      labels: [],
      author: "climpt-bot",
      createdAt: new Date().toISOString(),
      mergedAt: null,
    });
  });
  return gh;
}
const fake = await startFakeAnthropic();
let gh;
let env;
function use(part) {
  gh = part;
  env = {
    ...process.env,
    ...gh.env,
    ...IDENTITY,
    PATH: deno === null ? gh.env.PATH : `${path.dirname(deno)}${path.delimiter}${gh.env.PATH}`,
    ANTHROPIC_API_KEY: "sk-check-original",
    ANTHROPIC_BASE_URL: fake.url,
  };
}

/** `climpt …args` in `cwd`; its exit code and output (bounded: a hang is reported, not waited for). */
function climpt(cwd, rest, limitMs = 600_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...rest], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function lastJson(text) {
  const start = text.lastIndexOf("\n{") + 1;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
}

/** The line of a text that says what went wrong (an error line, else the first), without colours. */
function telling(text) {
  const lines = String(text ?? "")
    // Colour codes (ESC [ … m) out, built from the character so no control character is written.
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return (
    lines.find((l) =>
      /error|fatal|cannot|denied|refused|rejected|not found|nonexistent/i.test(l),
    ) ?? lines[0]
  );
}

/** Why a run went wrong, from its journal: a failed validator, else a failed tool call. */
function journalCause(file) {
  if (file === undefined || file === null || !existsSync(file)) return undefined;
  const events = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const validator = events.find((event) => event.type === "validator" && event.passed === false);
  if (validator !== undefined)
    return `validator ${validator.validator} failed: ${telling(validator.output)}`;
  const tool = events.find(
    (event) =>
      event.type === "tool_result" &&
      (event.result?.isError || /nonexistent|rejected|denied/i.test(event.result?.content ?? "")),
  );
  if (tool !== undefined) return `${tool.call?.name} failed: ${telling(tool.result?.content)}`;
  const program = events.find((event) => event.type === "program" && event.exitCode !== 0);
  if (program !== undefined)
    return `${program.command.join(" ")} exited ${program.exitCode}: ${telling(`${program.stderr}\n${program.stdout}`)}`;
  return undefined;
}

/** The journals of an issue's runs in its orchestrator worktree. */
function issueJournals(repo, issue) {
  const root = path.join(
    path.dirname(repo),
    "climpt-worktrees",
    path.basename(repo),
    `issue-${issue}`,
    "tmp",
    "logs",
    "agents",
  );
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((agent) =>
    readdirSync(path.join(root, agent))
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => path.join(root, agent, f)),
  );
}

const issueOf = (n) => gh.issue(n, "acme/widgets");
const describeIssue = (n) => {
  const issue = issueOf(n);
  return issue === undefined
    ? "-"
    : `#${n} ${issue.state} [${issue.labels.join(", ")}] ${issue.comments.length} comment(s)`;
};
const pad = (text, width) => (text.length >= width ? text : text + " ".repeat(width - text.length));

function print(line) {
  process.stdout.write(`${line}\n`);
}

// --- The seven agents alone ---------------------------------------------------------------
print(
  "AGENT        HERE                                                        ORIGINAL (same replies)                VERDICT",
);
use(
  fakeGh("single", [
    { number: 11, title: "How does the loader read labels?", labels: ["kind:consider"] },
    { number: 12, title: "Add a notes file", labels: ["kind:detail"] },
    { number: 13, title: "Write notes/13.md", labels: ["kind:impl", "docs"] },
    { number: 14, title: "Review notes", labels: ["review"] },
    { number: 15, title: "Untriaged", labels: [] },
  ]),
);
const single = checkout("single");
// The labels the triager puts on must exist, as the original's preflight label sync makes them.
await climpt(single, ["labels", "sync"]);
for (const run of SINGLE_RUNS) {
  const model = scriptedModel(run.plan);
  fake.setHandler(model.handler);
  const outcome = await climpt(single, ["run", run.agent, ...run.args, "--json"]);
  const result = lastJson(outcome.stdout);
  const here =
    result === null
      ? `refused (exit ${outcome.code}): ${
          outcome.stderr
            .split("\n")
            .find((l) => / [A-Z]+-[A-Z]+-\d{3}/.test(l))
            ?.trim() ?? outcome.stderr.trim().split("\n")[0]
        }`
      : `${result.success ? "completed" : /check-original: no reply left/.test(result.error?.message ?? "") ? "retried past its replies" : `failed ${result.error?.code ?? ""}`}${result.verdict === undefined ? "" : ` verdict=${result.verdict}`}`;
  const issue = run.issue === null ? undefined : issueOf(run.issue);
  const o = run.original;
  const checks = [
    result?.success === o.success,
    o.verdict === undefined || result?.verdict === o.verdict,
    o.state === undefined || issue?.state === o.state,
    o.comments === undefined || issue?.comments.length === o.comments,
    o.labelsInclude === undefined || issue?.labels.includes(o.labelsInclude),
    o.commit === undefined ||
      git(single, "log", "--format=%s", "--no-merges", "main").split("\n").includes(o.commit),
    o.pr === undefined ||
      gh.state().repos["acme/widgets"].pullRequests.find((pr) => pr.number === 8)?.state === o.pr,
  ];
  const same = checks.every(Boolean);
  const effect =
    run.issue === null
      ? `PR #8 ${gh.state().repos["acme/widgets"].pullRequests.find((pr) => pr.number === 8)?.state}`
      : describeIssue(run.issue);
  const expected = `${o.success ? "completed" : "failed"}${o.verdict ? ` verdict=${o.verdict}` : ""}${o.state ? ` ${o.state}` : ""}${o.comments !== undefined ? ` ${o.comments} comment(s)` : ""}${o.labelsInclude ? ` +${o.labelsInclude}` : ""}${o.commit ? " commit on main" : ""}${o.pr ? ` PR ${o.pr}` : ""}`;
  const cause = same
    ? ""
    : ` — cause: ${journalCause(result?.journalPath) ?? telling(result?.error?.message) ?? "see the run's journal"}`;
  print(
    `${pad(run.agent, 12)} ${pad(`${here}; ${effect}`, 59)} ${pad(expected, 38)} ${same ? "same" : `differs${cause}`}`,
  );
}

// --- The original's workflow.json over a batch ------------------------------------------------
print("");
use(
  fakeGh("batch", [...BATCH.issues, { number: 25, title: "Merge PR 8", labels: ["merge:ready"] }]),
);
const batch = checkout("batch");
const sync = await climpt(batch, ["labels", "sync"]);
print(
  `labels sync  exit ${sync.code}${sync.stderr.includes("WF-REF-008") ? " (warning WF-REF-008: the prioritizer's triager is not under agents)" : ""}`,
);
const plan = await climpt(batch, ["orchestrate", "--dry-run", "--label", "kind:consider"]);
print(
  `dry run      exit ${plan.code}: ${plan.stdout
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .join("; ")}`,
);
fake.setHandler(scriptedModel(BATCH.plan).handler);
const ran = await climpt(
  batch,
  ["orchestrate", "--concurrency", "1", "--json", "--verbose"],
  1_200_000,
);
const report = lastJson(ran.stdout);
print(`batch        exit ${ran.code}, status ${report?.status ?? "?"}`);
print(
  "ISSUE  HERE                                                   ORIGINAL (+ what climpt adds on purpose)   VERDICT",
);
for (const { number } of BATCH.issues) {
  const issue = issueOf(number);
  const o = BATCH.original[number];
  const ours = BATCH.ours[number];
  const comments = o.comments + (ours?.comments ?? 0);
  const committed =
    o.commit === undefined ||
    git(batch, "log", "--format=%s", "--no-merges", "main").split("\n").includes(o.commit);
  const same =
    issue?.state === o.state &&
    JSON.stringify(issue?.labels) === JSON.stringify(o.labels) &&
    issue?.comments.length === comments &&
    committed;
  const result = report?.issues?.find((entry) => entry.issue === number);
  const here = `${result?.status ?? "?"}; ${describeIssue(number)}${o.commit ? (committed ? ", commit on main" : ", NO commit on main") : ""}`;
  const expected = `${o.state} [${o.labels.join(", ")}] ${o.comments}${ours ? `+${ours.comments}` : ""} comment(s)${o.commit ? ", commit" : ""}`;
  const cause = same
    ? ""
    : ` — cause: ${
        issueJournals(batch, number)
          .map(journalCause)
          .filter((text) => text !== undefined)
          .join("; ") ||
        telling(result?.error?.message) ||
        "?"
      }`;
  print(
    `${pad(`#${number}`, 6)} ${pad(here, 54)} ${pad(expected, 42)} ${same ? "same" : `differs${cause}`}${ours && same ? ` (ours adds ${ours.why})` : ""}`,
  );
}

// --- workflow-merge.json: the merger with its payload -------------------------------------------
print("");
fake.setHandler(scriptedModel({}).handler);
const merge = await climpt(batch, [
  "orchestrate",
  "--workflow",
  ".agent/workflow-merge.json",
  "--issue",
  "25",
  "--verbose",
  "--json",
  "--payload",
  JSON.stringify({ prNumber: 8, verdictPath: "emits/8.json" }),
]);
const program = merge.stderr
  .split("\n")
  .find((line) => line.includes(" program "))
  ?.trim();
const mergeComment = issueOf(25)?.comments.at(-1)?.body.split("\n")[0] ?? "";
print(
  `merge #25    exit ${merge.code}; ${program === undefined ? "the merger did not start" : `started: ${program.replace(/^#25\s+/, "")}`}; ${describeIssue(25)}`,
);
if (mergeComment !== "") print(`             comment: ${mergeComment.slice(0, 300)}`);
print(
  "             original: the merger starts the same program with --pr 8 --verdict emits/8.json; online it merges PR 8",
);

await fake.close();
if (args.includes("--keep")) process.stderr.write(`kept: ${scratch}\n`);
else rmSync(scratch, { recursive: true, force: true });
