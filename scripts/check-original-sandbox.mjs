// Runs the original project's considerer, detailer, facilitator and reviewer agents — its real
// `.agent/<name>` folders, from the checkout given, unchanged — through the real `climpt run`
// with the OS sandbox on, scripted model replies (the fake Messages API of @climpt/testing) and
// the fake `gh`, and prints one line per agent: whether the agent's Bash wrote its scratch file
// under $TMPDIR, posted its comment from it with `gh … --body-file`, and (facilitator, reviewer)
// pushed its branch with `git push -u origin HEAD`, and how the run ended.
//
//   pnpm build && node scripts/check-original-sandbox.mjs [--verbose] /path/to/tettuan-climpt-checkout
//
// `--verbose` also prints each agent's Bash result and the run's output.
// Not part of CI (it needs a checkout of the original; nothing of it is copied here). Each agent
// works in a fresh repository in the temporary folder whose `origin` is a local bare repository;
// the facilitator and the reviewer run in worktree mode (their agent.json asks for it) from
// `develop`. docs/compatibility.md says what the lines mean.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "apps", "cli", "dist", "bin.mjs");
const TESTING = path.join(ROOT, "packages", "testing", "dist", "index.mjs");
const ISSUE = 1;
const RUN_TIMEOUT_MS = 5 * 60_000;

const verbose = process.argv.includes("--verbose");
const checkout = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
if (checkout === undefined) {
  process.stderr.write(
    "usage: node scripts/check-original-sandbox.mjs [--verbose] <checkout of the original>\n",
  );
  process.exit(2);
}
const agentsDir = path.resolve(checkout, ".agent");
for (const file of [BIN, TESTING]) {
  if (!existsSync(file)) {
    process.stderr.write(`${path.relative(ROOT, file)} is missing: run \`pnpm build\` first.\n`);
    process.exit(2);
  }
}
const { installFakeGh, reply, startFakeAnthropic } = await import(TESTING);

const IDENTITY = {
  GIT_AUTHOR_NAME: "climpt-check",
  GIT_AUTHOR_EMAIL: "check@climpt.invalid",
  GIT_COMMITTER_NAME: "climpt-check",
  GIT_COMMITTER_EMAIL: "check@climpt.invalid",
};
const git = (cwd, ...args) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...IDENTITY } }).trim();

/** A repository on `develop` (and `main`) with both pushed to a local bare `origin`. */
function makeRepository(base) {
  const work = path.join(base, "repo");
  const remote = path.join(base, "origin.git");
  mkdirSync(work);
  git(base, "init", "-q", "--bare", "-b", "main", remote);
  git(work, "init", "-q", "-b", "main");
  writeFileSync(path.join(work, "README.md"), "# sample\n");
  writeFileSync(path.join(work, ".gitignore"), "tmp/\n");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "initial");
  git(work, "remote", "add", "origin", remote);
  git(work, "push", "-q", "origin", "main");
  git(work, "checkout", "-qb", "develop");
  git(work, "push", "-q", "-u", "origin", "develop");
  return { work, remote };
}

/** A Bash call that writes `file` under $TMPDIR, says whether it exists, then runs `then`. */
function scratchThen(file, body, then) {
  return [
    `cat > "$TMPDIR/${file}" <<'EOF'`,
    body,
    "EOF",
    `test -s "$TMPDIR/${file}" && echo "CHECK tmpfile-written $TMPDIR/${file}"`,
    ...then,
  ].join("\n");
}

const PUSH = [
  "git push -u origin HEAD && echo CHECK pushed",
  "git rev-parse --abbrev-ref --symbolic-full-name @{u} && echo CHECK upstream-set",
];

/** Scripted replies per agent: the Bash call its prompt asks for, then its steps' outputs. */
const AGENTS = {
  considerer: {
    args: ["--issue", String(ISSUE)],
    replies: () => [
      reply.toolUse({
        name: "Bash",
        input: {
          command: scratchThen(
            `considerer-${ISSUE}.md`,
            "### 質問への回答\nThe sandbox answers.\n\n### 実装要望の評価\nNone.\n\n### 次アクション\nClose.",
            [
              `gh issue view ${ISSUE} --json number,title,body,labels,author,comments > /dev/null && echo CHECK issue-read`,
              `gh issue comment ${ISSUE} --body-file "$TMPDIR/considerer-${ISSUE}.md" && echo CHECK comment-posted`,
            ],
          ),
        },
      }),
      reply.json({
        stepId: "consider",
        status: "completed",
        summary: "Answered the question.",
        next_action: { action: "closing" },
        verdict: "done",
        final_summary: "Answered; no implementation needed.",
        handoff_anchor: { file: null, symbol: null, strategy: null },
      }),
    ],
  },
  detailer: {
    args: ["--issue", String(ISSUE)],
    replies: () => [
      reply.toolUse({
        name: "Bash",
        input: {
          command: scratchThen(
            `detailer-${ISSUE}.md`,
            "## Implementation Spec\n### Summary\nx\n### Changes\nx\n### Approach\nx\n### Acceptance Criteria\nx\n### Test Plan\nx",
            [
              `gh issue comment ${ISSUE} --body-file "$TMPDIR/detailer-${ISSUE}.md" && echo CHECK comment-posted`,
            ],
          ),
        },
      }),
      reply.json({
        stepId: "detail",
        status: "completed",
        summary: "Wrote the implementation spec.",
        next_action: { action: "closing" },
        verdict: "handoff-impl",
        closure_action: "label-only",
        detail_summary: "Spec posted.",
        spec_comment_url: `https://github.com/climpt-test/sample/issues/${ISSUE}#issuecomment-1`,
        blocked_reason: null,
      }),
    ],
  },
  facilitator: {
    // Its steps name {uv-project}: the original's facilitator works on a GitHub Project.
    args: ["--issue", String(ISSUE), "--project", "1"],
    push: true,
    replies: () => [
      reply.toolUse({
        name: "Bash",
        input: { command: scratchThen("status-report.md", "## Status\nAll on track.", PUSH) },
      }),
      reply.json({
        stepId: "initial.statuscheck",
        status: "completed",
        summary: "Checked the status; nothing blocks.",
        status_report: { metrics: { total_issues: 1, open_issues: 1, closed_issues: 0 } },
        next_action: { action: "handoff", reason: "nothing to facilitate" },
      }),
      reply.json({
        stepId: "closure.facilitation",
        status: "completed",
        summary: "Facilitation done.",
        validation: { git_clean: true, branch_pushed: true, branch_merged: true },
        next_action: { action: "closing", reason: "done" },
      }),
    ],
  },
  reviewer: {
    args: ["--issue", String(ISSUE)],
    push: true,
    replies: () => [
      reply.toolUse({
        name: "Bash",
        input: { command: scratchThen("review.md", "## Review\nNo findings.", PUSH) },
      }),
      reply.json({
        stepId: "initial.issue",
        status: "completed",
        summary: "Reviewed issue #1: no findings.",
        issue: ISSUE,
        review: { findings: { issues_found: [], recommendations: [] } },
        next_action: { action: "handoff", reason: "review complete" },
      }),
      reply.json({
        stepId: "closure.review",
        status: "completed",
        summary: "Review closed.",
        validation: { git_clean: true, branch_pushed: true, branch_merged: true },
        next_action: { action: "closing", reason: "done" },
      }),
    ],
  },
};

function runCli(args, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The tool results the model was sent, in order. */
function toolResults(fake) {
  const results = [];
  for (const request of fake.messageRequests()) {
    const content = request.body?.messages?.at(-1)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      if (block.type !== "tool_result") continue;
      const parts = Array.isArray(block.content) ? block.content : [{ text: block.content }];
      results.push(parts.map((part) => part.text ?? "").join(""));
    }
  }
  return results;
}

/** The first line of `text` that mentions `marker`, shortened. */
function reasonIn(text, marker) {
  const line = text.split("\n").find((entry) => entry.includes(marker));
  return line === undefined ? undefined : line.slice(0, 110);
}

async function checkAgent(name, spec, fake) {
  const agentDir = path.join(agentsDir, name);
  if (!existsSync(path.join(agentDir, "agent.json")))
    return `${name.padEnd(12)} missing: ${agentDir}`;
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), `climpt-original-${name}-`)));
  const gh = installFakeGh(
    {
      issues: [
        {
          number: ISSUE,
          title: "Does the sandbox fit real agents?",
          body: "## 質問\nCan agents write $TMPDIR and push?",
          labels: [],
        },
      ],
    },
    { dir: path.join(base, "gh") },
  );
  try {
    const { work, remote } = makeRepository(base);
    fake.reset();
    fake.enqueue(...spec.replies());
    const { code, output } = await runCli(["run", agentDir, "--cwd", work, ...spec.args], work, {
      ...process.env,
      ...gh.env,
      ...IDENTITY,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "check-key",
      NO_COLOR: "1",
    });
    const bash = toolResults(fake)[0] ?? "";
    const checks = new Set([...bash.matchAll(/^CHECK (\S+)/gm)].map((match) => match[1]));
    const fields = [
      `exit=${code}`,
      `tmpfile=${checks.has("tmpfile-written") ? "written" : "MISSING"}`,
    ];
    if (!spec.push) {
      const comments = gh.issue(ISSUE)?.comments ?? [];
      fields.push(
        checks.has("comment-posted") && comments.length > 0
          ? "comment=posted-from-tmpfile"
          : `comment=NOT-POSTED (${reasonIn(bash, "gh") ?? "no output"})`,
      );
    } else {
      const branches = git(remote, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
        .split("\n")
        .filter((branch) => !["main", "develop"].includes(branch));
      fields.push(
        checks.has("pushed") && branches.length > 0
          ? `push=${branches.join(",")}`
          : `push=FAILED (${reasonIn(bash, "push") ?? reasonIn(bash, "error") ?? "no output"})`,
        `upstream=${checks.has("upstream-set") ? "set" : "MISSING"}`,
      );
    }
    // The run's own summary line (`✓ completed …` or `✗ …`), else its last line.
    const lines = output.split("\n").filter((line) => line.trim() !== "");
    const end = lines.find((line) => /^[✓✗]/.test(line)) ?? lines.at(-1) ?? "";
    fields.push(
      `run: ${end
        .trim()
        .replace(/ · .*$/, "")
        .slice(0, 100)}`,
    );
    if (verbose) process.stderr.write(`--- ${name}\n${bash}\n${output}\n`);
    return `${name.padEnd(12)} ${fields.join("  ")}`;
  } finally {
    gh.remove();
    rmSync(base, { recursive: true, force: true });
  }
}

const fake = await startFakeAnthropic();
let failed = false;
try {
  for (const [name, spec] of Object.entries(AGENTS)) {
    const line = await checkAgent(name, spec, fake);
    if (/MISSING|NOT-POSTED|FAILED|missing:/.test(line)) failed = true;
    process.stdout.write(`${line}\n`);
  }
} finally {
  await fake.close();
}
process.exit(failed ? 1 : 0);
