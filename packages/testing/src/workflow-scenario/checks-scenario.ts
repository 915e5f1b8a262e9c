import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeReply, reply } from "@climpt/mock";
import { type FakeGh, installFakeGh } from "../fake-gh/install-fake-gh.ts";
import { type AgentScript, ScenarioModel } from "./scenario-model.ts";

/** The sample repository of the CI-following tests: implement → ci → review, two issues. */
export interface ChecksScenario {
  readonly root: string;
  readonly repoDir: string;
  /** The bare repository that stands for GitHub's copy (`origin`). */
  readonly remote: string;
  readonly worktreeRoot: string;
  readonly gh: FakeGh;
  readonly model: ScenarioModel;
  readonly repo: string;
  remove(): void;
}

/** The workflow fixture's folder, found from this module whether it runs from `src/` or `dist/`. */
function fixtureDir(): string {
  let dir = import.meta.dirname;
  for (let depth = 0; depth < 4; depth++) {
    const candidate = path.join(dir, "fixtures", "workflow-project");
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error("checks scenario: fixtures/workflow-project not found next to @climpt/testing.");
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

const closing = (stepId: string, summary: string, fields: Record<string, unknown> = {}) =>
  reply.json({ stepId, summary, ...fields, next_action: { action: "closing" } });

/** One run of the implementer (or of the fix agent, which has its steps): write, commit, close out. */
export function commitRun(issue: number, file: string, line: string, message: string): FakeReply[] {
  return [
    reply.toolUse({
      name: "Bash",
      input: {
        command: `mkdir -p "$(dirname ${file})" && printf '%s\\n' '${line}' >> ${file} && git add -A && git commit -qm '${message}'`,
      },
    }),
    reply.json({
      stepId: "initial.implement",
      summary: `Wrote ${file} for issue #${issue}.`,
      files: [file],
      next_action: { action: "next" },
    }),
    closing("closure.implement", `Issue #${issue}: committed.`),
  ];
}

export const reviewReply = (verdict: string): FakeReply =>
  closing("closure.review", `Reviewed: ${verdict}.`, { verdict });

/**
 * The workflow: `implementing` lands a pull request, `ci` follows its checks (fix agent
 * `ci-fixer`), `reviewing` approves and closes. `checks` is the ci phase's checks field.
 */
function workflowJson(checks: Record<string, number>): string {
  return JSON.stringify(
    {
      version: "1.0.0",
      phases: {
        implementing: { type: "actionable", priority: 3, agent: "implementer" },
        ci: { type: "actionable", priority: 2, agent: "ci-fixer", checks },
        reviewing: { type: "actionable", priority: 1, agent: "reviewer" },
        done: { type: "terminal" },
        blocked: { type: "blocking" },
      },
      labelMapping: {
        "kind:impl": "implementing",
        "kind:ci": "ci",
        "kind:review": "reviewing",
        done: "done",
        "need clearance": "blocked",
      },
      agents: {
        implementer: { role: "transformer", outputPhase: "ci", fallbackPhase: "blocked" },
        "ci-fixer": { role: "transformer", outputPhase: "reviewing", fallbackPhase: "blocked" },
        reviewer: {
          role: "validator",
          outputPhases: { approved: "done", "changes-requested": "implementing" },
          fallbackPhase: "blocked",
          closeOnComplete: true,
        },
      },
      rules: { maxCycles: 10, cycleDelayMs: 0 },
      land: { mode: "pull-request" },
    },
    null,
    2,
  );
}

/** `ci-fixer`: the implementer's steps, with the arguments a checks phase gives its fix agent. */
function writeFixAgent(agentsDir: string): void {
  const dir = path.join(agentsDir, "ci-fixer");
  cpSync(path.join(agentsDir, "implementer"), dir, { recursive: true });
  const agentFile = path.join(dir, "agent.json");
  const agent = JSON.parse(readFileSync(agentFile, "utf8")) as Record<string, unknown>;
  agent.name = "ci-fixer";
  agent.description = "Fix the failing checks of the issue's pull request";
  agent.parameters = {
    ...(agent.parameters as Record<string, unknown>),
    failedChecks: { type: "string", description: "The failing checks", cli: "--failed-checks" },
    checkLogs: { type: "string", description: "Their log tails", cli: "--check-logs" },
    pullRequest: { type: "string", description: "The pull request", cli: "--pull-request" },
  };
  writeFileSync(agentFile, JSON.stringify(agent, null, 2));
  const registryFile = path.join(dir, "steps_registry.json");
  const registry = readFileSync(registryFile, "utf8")
    .replace('"agentId": "implementer"', '"agentId": "ci-fixer"')
    .replace(
      '"uvVariables": [\n        "issue"\n      ],',
      '"uvVariables": [\n        "issue",\n        "failedChecks",\n        "checkLogs",\n        "pullRequest"\n      ],',
    );
  writeFileSync(registryFile, registry);
  writeFileSync(
    path.join(dir, "prompts", "system.md"),
    "You are the ci-fixer agent of the widgets workflow. You make the pull request's failing checks pass and commit; you never push.\n",
  );
  writeFileSync(
    path.join(dir, "prompts", "steps", "initial", "implement", "f_default.md"),
    "Issue #{uv-issue}: checks of {uv-pullRequest} failed.\n\nFailing checks:\n{uv-failedChecks}\n\nTheir logs:\n{uv-checkLogs}\n\nFix the cause and commit.\n",
  );
}

/**
 * Writes the repository (the workflow fixture's agents, this workflow, a `ci-fixer`), its bare
 * `origin`, and a fake gh holding `issues` in `kind:impl`. Run the model with
 * `fake.setHandler(scenario.model.handler)`.
 */
export function writeChecksScenario(options: {
  readonly issues: readonly number[];
  readonly script: AgentScript;
  readonly checks: Record<string, number>;
}): ChecksScenario {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-checks-"));
  const repoDir = path.join(root, "widgets");
  cpSync(fixtureDir(), repoDir, { recursive: true });
  writeFileSync(path.join(repoDir, ".agent", "workflow.json"), workflowJson(options.checks));
  writeFixAgent(path.join(repoDir, ".agent"));
  git(repoDir, "init", "-q", "-b", "main");
  git(repoDir, "config", "user.name", "climpt-test");
  git(repoDir, "config", "user.email", "test@climpt.invalid");
  git(repoDir, "add", "-A");
  git(repoDir, "commit", "-qm", "widgets: initial");
  const remote = path.join(root, "remote.git");
  execFileSync("git", ["clone", "-q", "--bare", repoDir, remote]);
  git(repoDir, "remote", "add", "origin", remote);
  git(repoDir, "fetch", "-q", "origin");
  const repo = "acme/widgets";
  const gh = installFakeGh(
    {
      repo,
      git: remote,
      issues: options.issues.map((number) => ({
        number,
        title: `Widget task ${number}`,
        body: `Issue ${number}.`,
        labels: ["kind:impl"],
      })),
    },
    { dir: path.join(root, "gh") },
  );
  return {
    root,
    repoDir,
    remote,
    worktreeRoot: path.join(root, "worktrees"),
    gh,
    model: new ScenarioModel(options.script),
    repo,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
