/**
 * A repository set up the way the root README's "Set it up on your repository" leaves it, and the
 * GitHub Actions job of `.github/workflows/climpt.yml` run against it with the fake gh and the
 * fake Messages API answering from the starter's own mock scripts.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import {
  createMockMatcher,
  type FakeAnthropic,
  type FakeRequest,
  parseMockScript,
  reply,
  requestFacts,
  startFakeAnthropic,
} from "@climpt/mock";
import { type FakeGh, type FakeGhCheckPlan, installFakeGh } from "@climpt/testing";
import { STARTER_AGENTS } from "../init/write-starter.ts";
import {
  condition,
  type ExpressionContext,
  parseWorkflowYaml,
  runStep,
  type WorkflowFile,
} from "./actions-job.test-helper.ts";
import { GIT_IDENTITY, git } from "./project.test-helper.ts";
import { REPO_ROOT, spawnCli, tempDir } from "./spawn-cli.test-helper.ts";
import { sampleProject } from "./starter.test-helper.ts";

/** The job's secrets: fake, and distinctive, so a leak into a journal or a comment is found. */
export const SECRETS = {
  ANTHROPIC_API_KEY: "sk-ant-starter-test-7f3a9c0b1d",
  CLIMPT_GITHUB_TOKEN: "github_pat_starter_test_5e8d2a",
} as const;
const JOB_TOKEN = "ghs_starter_job_token_4c1e7b";

/** Steps the test does not run, and why: they need root or the registry, not the repository. */
export const NOT_RUN: Readonly<Record<string, string>> = {
  "The sandbox climpt runs commands in":
    "apt-get and sysctl need root; this machine has the sandbox",
  Install: "the project's install; the test links the workspace's climpt as node_modules/climpt",
};

export interface JobWorld {
  readonly root: string;
  /** The bare repository standing for GitHub's copy (`origin`). */
  readonly origin: string;
  /** The job's checkout (GITHUB_WORKSPACE); the same path for every job, as on GitHub's runners. */
  readonly workspace: string;
  readonly gh: FakeGh;
  readonly fake: FakeAnthropic;
  /** When it returns true for a request, the fake API never answers it (a job to cancel). */
  hold: ((request: FakeRequest) => boolean) | null;
  /** The model requests, by step id. */
  requestsOf(step: string): number;
  readonly workflow: WorkflowFile;
  /** A fresh checkout at `workspace`, as a later job's actions/checkout makes (worktrees gone). */
  recheckout(): void;
  remove(): Promise<void>;
}

/**
 * The starter's four mock scripts as one, after `extra` rules (tried first), with the implementer
 * making a real commit.
 */
function modelScript(workspace: string, extra: readonly unknown[]) {
  const rules: unknown[] = [
    ...extra,
    {
      name: "implement: a real change",
      step: "initial.implement",
      turns: [
        {
          text: "Documenting sum.",
          toolCalls: [
            {
              name: "Bash",
              input: {
                command:
                  "printf '%s\\n' '// sum(a, b): the sum of two numbers.' | cat - src/sum.js > sum.tmp && mv sum.tmp src/sum.js && git add -A && git commit -qm 'sum: say what it does'",
              },
            },
          ],
        },
        {
          output: {
            stepId: "initial.implement",
            summary: "Documented sum; the checks pass.",
            work: { description: "sum: say what it does", files: ["src/sum.js"] },
            next_action: { action: "handoff", reason: "Done and committed." },
          },
        },
      ],
    },
  ];
  for (const agent of STARTER_AGENTS) {
    const file = path.join(workspace, ".agent", agent, "mock.json");
    rules.push(...(JSON.parse(readFileSync(file, "utf8")) as { rules: unknown[] }).rules);
  }
  const parsed = parseMockScript(JSON.stringify({ rules }), "starter-mocks.json");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

function linkClimpt(workspace: string): void {
  mkdirSync(path.join(workspace, "node_modules", ".bin"), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, "apps", "cli"), path.join(workspace, "node_modules", "climpt"));
  symlinkSync("../climpt/bin/climpt.mjs", path.join(workspace, "node_modules", ".bin", "climpt"));
}

export interface WorldOptions {
  /** The issues, each labelled climpt:triage; default #1 and #2. */
  readonly issues?: readonly { number: number; title: string; body: string }[];
  /** The checks each issue's pull request gets, per head commit; default one passing check. */
  readonly checks?: Readonly<Record<number, FakeGhCheckPlan[][]>>;
  /** Mock rules tried before the starter's own. */
  readonly rules?: readonly unknown[];
}

const DEFAULT_ISSUES = [
  {
    number: 1,
    title: "Say what sum does",
    body: "src/sum.js needs a comment that says what sum returns.",
  },
  { number: 2, title: "Say what sum does, again", body: "The same, for the resume test." },
];

export async function jobWorld(prefix: string, options: WorldOptions = {}): Promise<JobWorld> {
  const root = tempDir(prefix);
  const origin = path.join(root, "origin.git");
  const workspace = path.join(root, "work", "sample");
  sampleProject(prefix, { dir: workspace });
  const init = await spawnCli(["init", "--workflow", "issue-to-pr"], { cwd: workspace });
  if (init.code !== 0) throw new Error(init.stderr);
  git(workspace, "add", "-A");
  git(workspace, "commit", "-qm", "climpt: the issue-to-pr workflow");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", origin]);
  git(workspace, "remote", "add", "origin", origin);
  git(workspace, "push", "-q", "origin", "main");
  linkClimpt(workspace);
  const issues = options.issues ?? DEFAULT_ISSUES;
  const gh = installFakeGh({
    repo: "acme/sample",
    issues: issues.map((issue) => ({ ...issue, labels: ["climpt:triage"] })),
    checks: issues.map((issue) => ({
      branch: `climpt/issue-${issue.number}`,
      heads: options.checks?.[issue.number] ?? [
        [{ name: "test", conclusion: "success" as const, polls: 0 }],
      ],
    })),
  });
  const fake = await startFakeAnthropic();
  const matcher = createMockMatcher(modelScript(workspace, options.rules ?? []));
  const world: JobWorld = {
    root,
    origin,
    workspace,
    gh,
    fake,
    hold: null,
    requestsOf: (step) =>
      fake.messageRequests().filter((request) => requestFacts(request).step === step).length,
    workflow: parseWorkflowYaml(
      readFileSync(path.join(workspace, ".github", "workflows", "climpt.yml"), "utf8"),
    ),
    recheckout() {
      rmSync(path.join(root, "work"), { recursive: true, force: true });
      mkdirSync(path.join(root, "work"));
      execFileSync("git", ["clone", "-q", origin, workspace]);
      linkClimpt(workspace);
    },
    async remove() {
      await fake.close();
      gh.remove();
      rmSync(root, { recursive: true, force: true });
    },
  };
  fake.setHandler((request) => (world.hold?.(request) ? reply.hang() : matcher.handler(request)));
  return world;
}

export interface JobOutcome {
  /** The steps run, in order. */
  readonly ran: string[];
  /** Steps that exited non-zero (or were killed): `name: code`. */
  readonly failed: string[];
  /** Every step's output, for assertion messages. */
  readonly log: string;
}

/**
 * Runs the job for an `issues: labeled` event on `issue`, the `schedule` (the batch), or a
 * `workflow_dispatch` with its `issue` input: each step
 * whose `if:` holds, `run:` steps executed, `uses:` steps left to GitHub (a test stands in for
 * the artifact download). `during` sees each running step's shell (to cancel the job).
 */
export async function runJob(
  world: JobWorld,
  event: { readonly issue: number } | { readonly schedule: true } | { readonly dispatch: string },
  during?: (step: string, pid: number) => void,
): Promise<JobOutcome> {
  const home = tempDir("job-home");
  const eventName =
    "issue" in event ? "issues" : "dispatch" in event ? "workflow_dispatch" : "schedule";
  const context: ExpressionContext = {
    github: {
      event_name: eventName,
      event:
        "issue" in event
          ? { issue: { number: event.issue }, label: { name: "climpt:triage" } }
          : {},
      repository: "acme/sample",
      token: JOB_TOKEN,
    },
    inputs: "dispatch" in event ? { issue: event.dispatch } : {},
    secrets: { ...SECRETS },
    steps: {},
  };
  const baseEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("ANTHROPIC_") && !key.startsWith("GIT_") && !key.startsWith("GH_"))
      baseEnv[key] = value;
  }
  Object.assign(baseEnv, world.gh.env, GIT_IDENTITY, {
    HOME: home,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: world.workspace,
    GITHUB_REPOSITORY: "acme/sample",
    GITHUB_EVENT_NAME: eventName,
    // The one addition to the job's environment: the fake Messages API stands for the real one.
    ANTHROPIC_BASE_URL: world.fake.url,
  });
  // The git identity is the job's own (git config --global in the Orchestrate step).
  for (const key of Object.keys(GIT_IDENTITY)) delete baseEnv[key];
  const job = world.workflow.jobs.orchestrate;
  if (job === undefined || !condition(context, job.if)) throw new Error("the job would not run");
  const ran: string[] = [];
  const failed: string[] = [];
  const log: string[] = [];
  let jobFailed = false;
  for (const step of job.steps) {
    if (step.run === undefined || (step.name !== undefined && step.name in NOT_RUN)) continue;
    // GitHub's default `if` is success(): after a failed step only `always()` steps run.
    if (step.if === undefined ? jobFailed : !condition(context, step.if)) continue;
    const name = step.name ?? step.run;
    ran.push(name);
    const result = await runStep(step, [world.workflow.env, job.env, step.env], {
      cwd: world.workspace,
      baseEnv,
      context,
      ...(during === undefined ? {} : { onSpawn: (pid: number) => during(name, pid) }),
    });
    log.push(`== ${name}: ${result.code ?? result.signal}\n${result.stdout}${result.stderr}`);
    if (result.code !== 0) {
      failed.push(`${name}: ${result.code ?? result.signal}`);
      jobFailed = true;
    }
  }
  rmSync(home, { recursive: true, force: true });
  return { ran, failed, log: log.join("\n") };
}
