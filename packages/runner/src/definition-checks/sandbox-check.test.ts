/**
 * The agent's sandbox setting, as a run sees it: where the sandbox cannot start, a run whose steps
 * can use Bash is refused before its first model call (RUN-SANDBOX-001); "off" is recorded in the
 * journal as a notice and Bash then runs unsandboxed. The sandbox is made unable to start for
 * real: `PATH` without `bwrap` (the probe looks it up on `PATH`), with the probe's per-process
 * cache reset before and after (`resetSandboxProbe`), so other tests in the worker probe again.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import type { Problem } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { resetSandboxProbe, SANDBOX_HINT } from "@climpt/tools";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FLAG_VALIDATION, intentReply, writeTestAgent } from "../agents.test-helper.ts";
import { loadAgentDefinition } from "../run/agent-location.ts";
import { makeSampleRepo } from "../runner.test-helper.ts";
import { StepFlowRunner } from "../step-flow-runner.ts";
import { tempDirForFile } from "../temp-dirs.test-helper.ts";
import { checkAgent } from "./check-agent.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 10 s at load 13–25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const closers: Array<() => Promise<void>> = [];
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  resetSandboxProbe();
  for (const close of closers.splice(0)) await close();
});

function agentWithSandbox(sandbox: string): string {
  return writeTestAgent({
    name: "sandboxed",
    entryStep: "initial.main",
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
    runner: {
      boundaries: { allowedTools: ["Read", "Bash"], permissionMode: "acceptEdits", sandbox },
    },
  });
}

async function fakeApi() {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  return {
    fake,
    client: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
  };
}

/**
 * A folder of links to every program on `PATH` except `bwrap`: the machine as it is, with
 * bubblewrap uninstalled.
 */
function pathWithoutBwrap(): string {
  const bin = tempDirForFile("climpt-no-bwrap-");
  const seen = new Set<string>();
  for (const dir of (savedPath ?? "").split(path.delimiter)) {
    if (dir === "" || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (name === "bwrap" || seen.has(name)) continue;
      seen.add(name);
      symlinkSync(path.join(dir, name), path.join(bin, name));
    }
  }
  return bin;
}

describe("runner.boundaries.sandbox", () => {
  it("required, and the sandbox cannot start: refused before the first model call with RUN-SANDBOX-001 and how to enable it", async () => {
    const { fake, client } = await fakeApi();
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const loaded = await loadAgentDefinition(agentWithSandbox("required"));
    process.env.PATH = pathWithoutBwrap();
    resetSandboxProbe();
    const refused = await new StepFlowRunner(loaded, { modelClient: client })
      .run({ cwd: makeSampleRepo(), args: {} })
      .then(
        () => undefined,
        (error: unknown) => error as { code?: string; problems?: readonly Problem[] },
      );
    expect(fake.messageRequests()).toHaveLength(0);
    const problems = refused?.problems ?? [];
    const sandbox = problems.find((problem) => problem.code === "RUN-SANDBOX-001");
    expect(sandbox, JSON.stringify(refused)).toBeDefined();
    expect(sandbox?.message).toContain("bubblewrap (bwrap) not installed");
    expect(sandbox?.message).toContain('"initial.main", "closure.done" can run Bash');
    expect(sandbox?.path).toBe("$.runner.boundaries.sandbox");
    expect(sandbox?.hint).toBe(SANDBOX_HINT);
  });

  it("required, no step has Bash, but a validator runs a command: refused up front too, and climpt validate says the same", async () => {
    const { fake, client } = await fakeApi();
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const dir = writeTestAgent({
      name: "checked",
      entryStep: "initial.main",
      steps: {
        "initial.main": {
          intents: ["handoff"],
          transitions: { handoff: { target: "closure.done" } },
        },
        "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
      runner: { boundaries: { allowedTools: ["Read"], permissionMode: "acceptEdits" } },
      ...FLAG_VALIDATION,
    });
    const loaded = await loadAgentDefinition(dir);
    process.env.PATH = pathWithoutBwrap();
    resetSandboxProbe();
    const cwd = makeSampleRepo();
    const refused = await new StepFlowRunner(loaded, { modelClient: client })
      .run({ cwd, args: {} })
      .then(
        () => undefined,
        (error: unknown) => error as { problems?: readonly Problem[] },
      );
    expect(fake.messageRequests()).toHaveLength(0);
    const sandbox = refused?.problems?.find((problem) => problem.code === "RUN-SANDBOX-001");
    expect(sandbox, JSON.stringify(refused)).toBeDefined();
    expect(sandbox?.message).toContain('Validator(s) "flag" run commands');
    expect(sandbox?.message).toContain("bubblewrap (bwrap) not installed");
    expect(sandbox?.severity).toBe("error");
    // The same problem from the checks `climpt validate` makes, as a warning: it runs nothing.
    const validated = await checkAgent(dir, { cwd, sandbox: true });
    const warning = validated.problems.find((problem) => problem.code === "RUN-SANDBOX-001");
    expect(warning?.message).toBe(sandbox?.message);
    expect(warning?.severity).toBe("warning");
    expect(warning?.path).toBe("$.runner.boundaries.sandbox");
  });

  it("required, nothing but the command boundary hook runs a command: refused up front too", async () => {
    const { fake, client } = await fakeApi();
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const dir = writeTestAgent({
      name: "hooked",
      entryStep: "initial.main",
      steps: {
        "initial.main": {
          intents: ["handoff"],
          transitions: { handoff: { target: "closure.done" } },
        },
        "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
      runner: {
        boundaries: {
          allowedTools: ["Read"],
          permissionMode: "acceptEdits",
          boundaryHook: "./scripts/release.sh",
        },
      },
    });
    const loaded = await loadAgentDefinition(dir);
    process.env.PATH = pathWithoutBwrap();
    resetSandboxProbe();
    const refused = await new StepFlowRunner(loaded, { modelClient: client })
      .run({ cwd: makeSampleRepo(), args: {} })
      .then(
        () => undefined,
        (error: unknown) => error as { problems?: readonly Problem[] },
      );
    expect(fake.messageRequests()).toHaveLength(0);
    const sandbox = refused?.problems?.find((problem) => problem.code === "RUN-SANDBOX-001");
    expect(sandbox?.message).toMatch(
      /^The boundary hook runs a command, which runs only inside the OS sandbox, and the sandbox cannot start here: /,
    );
  });

  it("required, nothing but a stdio MCP server runs a command: refused up front too", async () => {
    const { fake, client } = await fakeApi();
    fake.enqueue(intentReply("handoff"), intentReply("closing"));
    const dir = writeTestAgent({
      name: "with-mcp",
      entryStep: "initial.main",
      steps: {
        "initial.main": {
          intents: ["handoff"],
          transitions: { handoff: { target: "closure.done" } },
        },
        "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
      },
      runner: {
        boundaries: {
          allowedTools: ["Read", "mcp__files"],
          permissionMode: "acceptEdits",
          mcpServers: { files: { command: "node", args: ["server.js"] } },
        },
      },
    });
    const loaded = await loadAgentDefinition(dir);
    process.env.PATH = pathWithoutBwrap();
    resetSandboxProbe();
    const refused = await new StepFlowRunner(loaded, { modelClient: client })
      .run({ cwd: makeSampleRepo(), args: {} })
      .then(
        () => undefined,
        (error: unknown) => error as { problems?: readonly Problem[] },
      );
    expect(fake.messageRequests()).toHaveLength(0);
    const sandbox = refused?.problems?.find((problem) => problem.code === "RUN-SANDBOX-001");
    expect(sandbox?.message).toMatch(
      /^MCP server\(s\) "files" run commands, which run only inside the OS sandbox, and the sandbox cannot start here: /,
    );
  });

  it('"off" runs where the sandbox cannot start, and records its notice', async () => {
    const { fake, client } = await fakeApi();
    fake.enqueue(
      reply.toolUse({ name: "Bash", input: { command: "echo unsandboxed-ran" } }),
      intentReply("handoff"),
      intentReply("closing"),
    );
    const loaded = await loadAgentDefinition(agentWithSandbox("off"));
    process.env.PATH = pathWithoutBwrap();
    resetSandboxProbe();
    const result = await new StepFlowRunner(loaded, { modelClient: client }).run({
      cwd: makeSampleRepo(),
      args: {},
    });
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(fake.messageRequests()).toHaveLength(3);
    const journal = readFileSync(result.journalPath ?? "", "utf8");
    expect(journal).toContain("RUN-SANDBOX-002");
    expect(journal).toContain("unsandboxed-ran");
  });

  it('"off" is a notice in the journal, and Bash runs unsandboxed', async () => {
    const { fake, client } = await fakeApi();
    const cwd = makeSampleRepo();
    // Outside the working directory: only an unsandboxed command can write there.
    const outside = path.join(path.dirname(cwd), `${path.basename(cwd)}-outside.txt`);
    fake.enqueue(
      reply.toolUse({ name: "Bash", input: { command: `echo out > ${outside}` } }),
      intentReply("handoff"),
      intentReply("closing"),
    );
    const loaded = await loadAgentDefinition(agentWithSandbox("off"));
    const events: { type: string; message?: string }[] = [];
    const result = await new StepFlowRunner(loaded, {
      modelClient: client,
      onEvent: (event) => events.push(event as { type: string; message?: string }),
    }).run({ cwd, args: {} });
    expect(result.success).toBe(true);
    expect(existsSync(outside)).toBe(true);
    const notices = events.filter((event) => event.type === "notice").map((e) => e.message ?? "");
    expect(notices.some((message) => message.includes("RUN-SANDBOX-002"))).toBe(true);
    const journal = readFileSync(result.journalPath ?? "", "utf8");
    expect(journal).toContain("RUN-SANDBOX-002");
  });
});
