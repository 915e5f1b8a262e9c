/**
 * `climpt resume` checks the journal before it acts on it (docs/design.md#the-journal-and-resume):
 * a run_start that names another folder or agent, or an agent folder that changed since the run
 * started, is refused with a code before anything runs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ClimptError, type LoadedAgent } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { startFakeAnthropic } from "@climpt/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { intentReply, writeTestAgent } from "../agents.test-helper.ts";
import { readJournal } from "../journal/journal.ts";
import type { RunResult } from "../run-result.ts";
import { git, makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { loadAgentDefinition } from "./agent-location.ts";
import type { RunOptions } from "./run-options.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 9 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function agentFolder(): string {
  return writeTestAgent({
    name: "checked",
    entryStep: "initial.main",
    steps: {
      "initial.main": {
        intents: ["handoff", "abort"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
  });
}

/** A run that failed on what the model said (an abort): resumable, nothing else done. */
async function failedRun(options: { worktree?: boolean } = {}) {
  const repo = makeSampleRepo();
  const agentDir = agentFolder();
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  const runner = (loaded: LoadedAgent) =>
    new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({ apiKey: "sk-test", baseURL: fake.url, maxRetries: 0 }),
    });
  fake.enqueue(intentReply("abort"));
  const failed = await runner(await loadAgentDefinition(agentDir)).run({
    cwd: repo,
    ...(options.worktree === true ? { worktree: true } : {}),
  });
  expect(failed.error?.code).toBe("AGENT_ABORTED");
  // The failed run keeps its worktree next to the repository, outside the test's folders.
  const kept = failed.worktree?.path;
  if (kept !== undefined) closers.push(() => rmSync(kept, { recursive: true, force: true }));
  const journal = failed.journalPath as string;
  const resume = async (
    extra: Partial<RunOptions> = {},
    replies = [intentReply("handoff"), intentReply("closing")],
  ): Promise<RunResult> => {
    fake.reset();
    fake.enqueue(...replies);
    return runner(await loadAgentDefinition(agentDir)).run({
      cwd: repo,
      resume: failed.runId,
      ...extra,
    });
  };
  return { repo, agentDir, fake, failed, journal, resume };
}

/** Rewrites the journal's run_start line (the first) with `change`. */
function editRunStart(journal: string, change: (start: Record<string, unknown>) => void): void {
  const [first = "", ...rest] = readFileSync(journal, "utf8").split("\n");
  const start = JSON.parse(first) as Record<string, unknown>;
  change(start);
  writeFileSync(journal, [JSON.stringify(start), ...rest].join("\n"));
}

async function refusal(running: Promise<unknown>): Promise<ClimptError> {
  const error = await running.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ClimptError.isInstance(error)) throw new Error(`expected a coded refusal, got ${error}`);
  return error;
}

describe("resume checks the journal's run_start against where it was found", () => {
  it("refuses a run_start whose working folder is elsewhere (RUN-RESUME-005), before anything runs", async () => {
    const { journal, resume, fake } = await failedRun();
    const home = tempDirForFile("climpt-home-");
    writeFileSync(path.join(home, ".bashrc"), "# mine\n");
    editRunStart(journal, (start) => {
      start.cwd = home;
    });
    const error = await refusal(resume());
    expect(error.code).toBe("RUN-RESUME-005");
    expect(error.message).toContain(`it says the run worked in ${home}`);
    expect(fake.messageRequests()).toHaveLength(0);
    expect(readFileSync(path.join(home, ".bashrc"), "utf8")).toBe("# mine\n");
  });

  it("refuses a run_start that says it started in another folder, or with another agent", async () => {
    const elsewhere = tempDirForFile("climpt-elsewhere-");
    for (const [field, value, said] of [
      ["originCwd", elsewhere, "it says the run started in"],
      ["agent", "other", `it says the run's agent was "other"`],
      ["runId", "20260101T000000Z-000000", "belongs to run"],
    ] as const) {
      const { journal, resume, fake } = await failedRun();
      editRunStart(journal, (start) => {
        start[field] = value;
      });
      const error = await refusal(resume());
      expect(error.code, field).toBe("RUN-RESUME-005");
      expect(error.message).toContain(said);
      expect(fake.messageRequests()).toHaveLength(0);
    }
  });

  it("in worktree mode, refuses a worktree that is not the repository's on the run's branch", async () => {
    const { journal, resume, fake, repo } = await failedRun({ worktree: true });
    const start = readJournal(journal)[0] as { worktree: { path: string; branch: string } };
    // A worktree of the repository, but on another branch.
    const other = path.join(tempDirForFile("climpt-other-"), "wt");
    git(repo, "worktree", "add", "-q", "-b", "other", other);
    editRunStart(journal, (event) => {
      event.cwd = other;
      event.worktree = { ...start.worktree, path: other };
    });
    const error = await refusal(resume());
    expect(error.code).toBe("RUN-RESUME-005");
    expect(error.message).toContain(`has branch "other" checked out, not the run's`);
    // A folder that is no worktree of it at all.
    const stray = tempDirForFile("climpt-stray-");
    editRunStart(journal, (event) => {
      event.cwd = stray;
      event.worktree = { ...start.worktree, path: stray };
    });
    const stranger = await refusal(resume());
    expect(stranger.message).toContain(`${stray} is not a worktree of the repository`);
    expect(fake.messageRequests()).toHaveLength(0);
    // The journal as written resumes in its worktree.
    editRunStart(journal, (event) => {
      event.cwd = start.worktree.path;
      event.worktree = start.worktree;
    });
    const resumed = await resume();
    expect(resumed.success, JSON.stringify(resumed.error)).toBe(true);
  });
});

describe("resume checks the agent definition against the one the run started with", () => {
  it("records a digest of the agent folder in run_start", async () => {
    const { journal } = await failedRun();
    const start = readJournal(journal)[0] as { definition?: { sha256: string; files: object } };
    expect(start.definition?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(start.definition?.files ?? {}).sort()).toEqual([
      "agent.json",
      "prompts/steps/closure/done/f_default.md",
      "prompts/steps/initial/main/f_default.md",
      "prompts/system.md",
      "schemas/steps.schema.json",
      "steps_registry.json",
    ]);
  });

  it("refuses a changed definition, naming the files (RUN-RESUME-006); --accept-changed-definition resumes and records it", async () => {
    const { agentDir, resume, fake, journal } = await failedRun();
    const agentJson = JSON.parse(readFileSync(path.join(agentDir, "agent.json"), "utf8")) as {
      runner: { boundaries: Record<string, unknown> };
    };
    agentJson.runner.boundaries.boundaryHook = "sh payload.sh";
    writeFileSync(path.join(agentDir, "agent.json"), JSON.stringify(agentJson));
    mkdirSync(path.join(agentDir, "scripts"));
    writeFileSync(path.join(agentDir, "scripts", "check.sh"), "exit 0\n");

    const error = await refusal(resume());
    expect(error.code).toBe("RUN-RESUME-006");
    expect(error.message).toContain("changed since the run started (agent.json, scripts/check.sh)");
    expect(error.hint).toContain("--accept-changed-definition");
    expect(fake.messageRequests()).toHaveLength(0);

    // The user made the change and accepts it: the run goes on under it, and says so.
    agentJson.runner.boundaries.boundaryHook = "true";
    writeFileSync(path.join(agentDir, "agent.json"), JSON.stringify(agentJson));
    const resumed = await resume({ acceptChangedDefinition: true });
    expect(resumed.success, JSON.stringify(resumed.error)).toBe(true);
    const notices = readJournal(journal).filter((event) => event.type === "notice");
    expect(notices.map((event) => (event as { message: string }).message).join("\n")).toMatch(
      /RUN-RESUME-006.*Resumed anyway/,
    );
  });

  it("compares with the definition of the last resume, so an accepted change is not asked again", async () => {
    const { agentDir, resume } = await failedRun();
    writeFileSync(path.join(agentDir, "prompts", "system.md"), "You are a changed agent.");
    // Accepted; the model aborts again.
    const accepted = await resume({ acceptChangedDefinition: true }, [intentReply("abort")]);
    expect(accepted.error?.code).toBe("AGENT_ABORTED");
    // A change after that resume is refused again…
    writeFileSync(path.join(agentDir, "prompts", "system.md"), "You are changed twice.");
    expect((await refusal(resume())).code).toBe("RUN-RESUME-006");
    // …and the definition as that resume had it needs no flag.
    writeFileSync(path.join(agentDir, "prompts", "system.md"), "You are a changed agent.");
    const resumed = await resume();
    expect(resumed.success, JSON.stringify(resumed.error)).toBe(true);
  });

  it("resumes a journal from before digests with a warning (RUN-RESUME-007)", async () => {
    const { journal, resume } = await failedRun();
    editRunStart(journal, (start) => {
      delete start.definition;
    });
    const resumed = await resume();
    expect(resumed.success, JSON.stringify(resumed.error)).toBe(true);
    const notices = readJournal(journal)
      .filter((event) => event.type === "notice")
      .map((event) => (event as { message: string }).message);
    expect(notices.join("\n")).toContain("RUN-RESUME-007");
  });
});
