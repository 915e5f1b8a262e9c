import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type FakeReply, reply } from "@climpt/mock";
import { type FakeGh, installFakeGh } from "../fake-gh/install-fake-gh.ts";
import { type AgentScript, ScenarioModel, type SlowCall } from "./scenario-model.ts";

/** Where an issue of the scenario ends. */
export interface ExpectedIssue {
  readonly title: string;
  /** The phase label it ends with. */
  readonly label: string;
  readonly state: "OPEN" | "CLOSED";
  /** Comments the orchestrator posts on the way (handoff templates, fallback explanations). */
  readonly comments: number;
  /** The transitions it makes. */
  readonly path: readonly string[];
}

export interface WorkflowScenario {
  /** A git repository (one commit) holding `.agent/workflow.json` and the six agents. */
  readonly repoDir: string;
  /** Where worktrees go (inside the scenario folder, so `remove` takes them too). */
  readonly worktreeRoot: string;
  readonly gh: FakeGh;
  readonly model: ScenarioModel;
  readonly repo: string;
  readonly expected: Readonly<Record<number, ExpectedIssue>>;
  /** Model calls the scenario makes when nothing is repeated. */
  readonly modelCalls: number;
  /**
   * A machine of a fleet: its own clone of the repository (of a bare repository every machine
   * shares as `origin`, made on first call) and its own worktree folder, both under the scenario
   * folder but sharing nothing with another machine's.
   */
  machine(name: string): ScenarioMachine;
  remove(): void;
}

export interface ScenarioMachine {
  /** The machine's clone; its `origin` is the shared bare repository. */
  readonly checkout: string;
  /** Where the machine's issue worktrees go. */
  readonly worktreeRoot: string;
}

export interface ScenarioOptions {
  /** Delay one call's reply (to kill a worker while it waits). */
  readonly slow?: readonly SlowCall[];
}

const FIXTURE = "workflow-project";

function fixtureDir(): string {
  let dir = import.meta.dirname;
  for (let depth = 0; depth < 4; depth++) {
    const candidate = path.join(dir, "fixtures", FIXTURE);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`workflow scenario: fixtures/${FIXTURE} not found next to @climpt/testing.`);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

const closing = (
  stepId: string,
  summary: string,
  fields: Record<string, unknown> = {},
): FakeReply => reply.json({ stepId, summary, ...fields, next_action: { action: "closing" } });

/** One implementer run: a shell command that writes (and, when `commit`, commits), then the close-out. */
function implement(issue: number, pass: number, commit: boolean): FakeReply[] {
  const file = `notes/issue-${issue}.md`;
  const write = `mkdir -p notes && printf '%s\\n' 'Issue ${issue}, pass ${pass}' >> ${file}`;
  return [
    reply.toolUse(
      {
        name: "Bash",
        input: {
          command: commit
            ? `${write} && git add -A && git commit -qm 'widgets: issue #${issue}, pass ${pass}'`
            : write,
        },
      },
      { text: `Writing ${file}.` },
    ),
    reply.json({
      stepId: "initial.implement",
      summary: `Recorded pass ${pass} of issue #${issue} in ${file}.`,
      files: [file],
      next_action: { action: "next" },
    }),
    closing("closure.implement", `Issue #${issue}, pass ${pass}, is implemented.`),
  ];
}

const triage = (verdict: string): FakeReply =>
  closing("closure.triage", `Triaged as ${verdict}.`, { verdict });
const review = (verdict: string, summary: string): FakeReply =>
  closing("closure.review", summary, { verdict });

/**
 * The six issues of the workflow end-to-end tests and `pnpm demo:fleet`, and what the model
 * says to each agent about each. Between them they take every kind of path: straight through,
 * an answered question, a review that sends the work back, a specification that needs a person,
 * an issue that will not be done, and an implementation whose close-out validation fails.
 */
const SCRIPT: AgentScript = {
  "sequencer#0": [
    closing("closure.sequence", "Ordered the batch.", {
      priorities: [
        { issue: 3, priority: "order:1" },
        { issue: 6, priority: "order:1" },
        { issue: 1, priority: "order:2" },
        { issue: 2, priority: "order:2" },
        { issue: 4, priority: "order:3" },
        { issue: 5, priority: "order:3" },
      ],
    }),
  ],
  "triager#1": [triage("ready")],
  "implementer#1": implement(1, 1, true),
  "reviewer#1": [review("approved", "The note is there and committed.")],
  "triager#2": [triage("question")],
  "considerer#2": [
    closing("closure.consider", "Widgets are listed in src/widgets.txt.", { verdict: "answered" }),
  ],
  "considerer#3": [
    closing("closure.consider", "This needs a format decision first.", { verdict: "needs-detail" }),
  ],
  "detailer#3": [
    closing("closure.detail", "Specified.", {
      verdict: "specified",
      spec: "Write one line per pass to notes/issue-3.md.",
    }),
  ],
  "implementer#3": [...implement(3, 1, true), ...implement(3, 2, true)],
  "reviewer#3": [
    review("changes-requested", "One pass is not enough; record a second."),
    review("approved", "Both passes are recorded."),
  ],
  "detailer#4": [
    closing("closure.detail", "Needs a decision on the widget naming policy.", {
      verdict: "blocked",
    }),
  ],
  "triager#5": [triage("invalid")],
  "implementer#6": implement(6, 1, false),
};

const EXPECTED: Readonly<Record<number, ExpectedIssue>> = {
  1: {
    title: "Record widget notes",
    label: "done",
    state: "CLOSED",
    comments: 2,
    path: ["inbox->implementing", "implementing->reviewing", "reviewing->done"],
  },
  2: {
    title: "Where are widgets listed?",
    label: "done",
    state: "CLOSED",
    comments: 0,
    path: ["inbox->considering", "considering->done"],
  },
  3: {
    title: "Keep a log of passes",
    label: "done",
    state: "CLOSED",
    comments: 6,
    path: [
      "considering->detailing",
      "detailing->implementing",
      "implementing->reviewing",
      "reviewing->implementing",
      "implementing->reviewing",
      "reviewing->done",
    ],
  },
  4: {
    title: "Rename every widget",
    label: "need clearance",
    state: "OPEN",
    comments: 0,
    path: ["detailing->blocked"],
  },
  5: {
    title: "Make widgets sentient",
    label: "wontfix",
    state: "CLOSED",
    comments: 0,
    path: ["inbox->wontfix"],
  },
  6: {
    title: "Write a draft note",
    label: "need clearance",
    state: "OPEN",
    comments: 1,
    path: ["implementing->blocked"],
  },
};

const START_LABELS: Readonly<Record<number, string>> = {
  1: "needs-triage",
  2: "needs-triage",
  3: "kind:consider",
  4: "kind:detail",
  5: "needs-triage",
  6: "kind:impl",
};

/**
 * Writes the scenario: a git repository holding the workflow and its agents, a fake gh holding
 * the six issues (labels are not created yet: `climpt labels sync` or a batch's preflight does
 * that), and the fake model that scripts every agent. Run the fake model with
 * `startFakeAnthropic()` and `fake.setHandler(scenario.model.handler)`.
 */
export function writeWorkflowScenario(options: ScenarioOptions = {}): WorkflowScenario {
  const root = mkdtempSync(path.join(tmpdir(), "climpt-scenario-"));
  const repoDir = path.join(root, "widgets");
  cpSync(fixtureDir(), repoDir, { recursive: true });
  git(repoDir, "init", "-q", "-b", "main");
  // Agents commit through their Bash tool, which does not get the test's git environment.
  git(repoDir, "config", "user.name", "climpt-test");
  git(repoDir, "config", "user.email", "test@climpt.invalid");
  git(repoDir, "add", "-A");
  git(repoDir, "commit", "-qm", "widgets: initial");
  const repo = "acme/widgets";
  const gh = installFakeGh(
    {
      repo,
      issues: Object.entries(EXPECTED).map(([number, issue]) => ({
        number: Number(number),
        title: issue.title,
        body: `Scenario issue ${number}.`,
        labels: [START_LABELS[Number(number)] as string],
      })),
    },
    { dir: path.join(root, "gh") },
  );
  const remote = path.join(root, "remote.git");
  const machine = (name: string): ScenarioMachine => {
    if (!existsSync(remote)) execFileSync("git", ["clone", "-q", "--bare", repoDir, remote]);
    const home = path.join(root, "machines", name);
    const checkout = path.join(home, "widgets");
    execFileSync("git", ["clone", "-q", remote, checkout]);
    git(checkout, "config", "user.name", "climpt-test");
    git(checkout, "config", "user.email", "test@climpt.invalid");
    return { checkout, worktreeRoot: path.join(home, "worktrees") };
  };
  return {
    repoDir,
    machine,
    worktreeRoot: path.join(root, "worktrees"),
    gh,
    model: new ScenarioModel(SCRIPT, options.slow ?? []),
    modelCalls: new ScenarioModel(SCRIPT).scriptedCalls,
    repo,
    expected: EXPECTED,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
