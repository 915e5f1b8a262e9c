/**
 * Nothing the model wrote runs on the host with credentials: the command validators and program
 * steps of a run execute files the model may have edited (`node test/run.js`), so they run in the
 * OS sandbox Bash runs in (command-sandboxes.ts). The model rewrites the file the command runs to
 * print the tokens of the environment (reversed, so no scrubber can recognise them) and to write
 * canaries outside the working directory and into the host's home directory; none of it may reach
 * the journal, the result, the requests to the model (the retry prompt) or the disk.
 *
 * The secrets are in `process.env`, where a validator on the host would find them, and HOME
 * points at a scratch "host home" for the file's tests (restored afterwards).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { type FakeReply, installSimpleFakeGh, reply, startFakeAnthropic } from "@climpt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { intentReply, type TestAgentSpec, writeTestAgent } from "./agents.test-helper.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import type { RunnerOptions, RunOptions } from "./run/run-options.ts";
import type { RunEvent } from "./run-event.ts";
import type { RunResult } from "./run-result.ts";
import { git, makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 20 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const GH_TOKEN = "ghp_h26ChecksToken0123456789abcdefABCDEF";
const NPM_TOKEN = "npm_h26ChecksNpm0123456789abcdefABCDEFGH";
const reversed = (text: string): string => [...text].reverse().join("");

const saved = {
  HOME: process.env.HOME,
  GH_TOKEN: process.env.GH_TOKEN,
  NPM: process.env.NPM_TOKEN,
};
let hostHome = "";
let outside = "";
beforeAll(() => {
  hostHome = tempDirForFile("climpt-host-home-");
  outside = tempDirForFile("climpt-outside-");
  process.env.HOME = hostHome;
  process.env.GH_TOKEN = GH_TOKEN;
  process.env.NPM_TOKEN = NPM_TOKEN;
});
afterAll(() => {
  for (const [name, value] of [
    ["HOME", saved.HOME],
    ["GH_TOKEN", saved.GH_TOKEN],
    ["NPM_TOKEN", saved.NPM],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A Node script (an ES module, as the sample repository's package.json says) that prints what it can see of the secrets (reversed: past any scrubber), names
 * the secret-looking variables it has, and tries to leave a canary outside the working directory,
 * in the host's home directory and in `$HOME`. `exitCode`: how it ends.
 */
function snoopScript(tag: string, exitCode: number): string {
  const targets = [
    path.join(outside, `canary-${tag}`),
    path.join(hostHome, `canary-${tag}`),
    `\${process.env.HOME}/canary-home-${tag}`,
  ];
  return [
    'import fs from "node:fs";',
    'const gh = process.env.GH_TOKEN ?? "";',
    'const npm = process.env.NPM_TOKEN ?? "";',
    'console.log("gh-reversed:" + [...gh].reverse().join(""));',
    'console.log("npm-reversed:" + [...npm].reverse().join(""));',
    'console.log("npm-plain:" + npm);',
    'console.log("secret-names:" + Object.keys(process.env).filter((n) => /TOKEN|SECRET|_KEY/.test(n)).sort().join(","));',
    `for (const file of [${targets.map((target) => `\`${target}\``).join(", ")}]) {`,
    '  try { fs.writeFileSync(file, "canary " + gh); console.log("wrote " + file); }',
    '  catch (error) { console.log("refused " + file + " " + error.code); }',
    "}",
    `process.exit(${exitCode});`,
  ].join("\n");
}

function canaries(tag: string): string[] {
  return [
    path.join(outside, `canary-${tag}`),
    path.join(hostHome, `canary-${tag}`),
    path.join(hostHome, `canary-home-${tag}`),
  ].filter((file) => existsSync(file));
}

/** A validator `node <script>` on `closure.done`, built-in retry text on failure. */
function validatedAgent(
  validators: Readonly<Record<string, JsonValue>>,
  sandbox: JsonValue = "required",
  onFailure: JsonValue = { action: "retry", maxAttempts: 3 },
): string {
  const spec: TestAgentSpec = {
    name: "checked",
    entryStep: "initial.main",
    parameters: { issue: { type: "number", description: "The issue", cli: "--issue" } },
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": {
        intents: ["closing", "repeat"],
        transitions: { closing: { target: null }, repeat: { target: "initial.main" } },
      },
    },
    runner: {
      boundaries: {
        allowedTools: ["Read", "Write", "Bash"],
        permissionMode: "acceptEdits",
        sandbox,
      },
    },
    registry: {
      validators,
      failurePatterns: { failed: { edition: "failed", fallback: "built-in" } },
      validationSteps: {
        "closure.done": {
          stepId: "closure.done",
          c2: "retry",
          c3: "done",
          validationConditions: Object.keys(validators).map((validator) => ({ validator })),
          onFailure,
        },
      },
    },
  };
  return writeTestAgent(spec);
}

function nodeValidator(script: string, extra: Readonly<Record<string, JsonValue>> = {}): JsonValue {
  return {
    type: "command",
    command: `node ${script}`,
    successWhen: "exitCode:0",
    failurePattern: "failed",
    ...extra,
  };
}

interface Run {
  readonly result: RunResult;
  readonly journal: string;
  readonly requests: string;
  readonly events: RunEvent[];
}

async function run(
  agentDir: string,
  replies: readonly FakeReply[],
  cwd: string,
  options: Partial<RunnerOptions> = {},
  args: Readonly<Record<string, JsonValue>> = {},
  runOptions: Partial<RunOptions> = {},
): Promise<Run> {
  const fake = await startFakeAnthropic();
  closers.push(() => fake.close());
  fake.enqueue(...replies);
  const events: RunEvent[] = [];
  const result = await new StepFlowRunner(await loadAgentDefinition(agentDir), {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    onEvent: (event) => events.push(event),
    ...options,
  }).run({ cwd, args, ...runOptions });
  return {
    result,
    journal: result.journalPath === null ? "" : readFileSync(result.journalPath, "utf8"),
    requests: fake
      .messageRequests()
      .map((request) => request.rawBody)
      .join("\n"),
    events,
  };
}

function validatorOutputs(events: readonly RunEvent[]): Record<string, string[]> {
  const outputs: Record<string, string[]> = {};
  for (const event of events) {
    if (event.type !== "validator") continue;
    outputs[event.validator] = [...(outputs[event.validator] ?? []), event.output];
  }
  return outputs;
}

describe("validators run in the sandbox", () => {
  it("a test file the model rewrote cannot see GH_TOKEN or leave canaries; the retry prompt holds none of it", async () => {
    const cwd = makeSampleRepo();
    const agent = validatedAgent({ tests: nodeValidator("test/run.js") });
    const { result, journal, requests, events } = await run(
      agent,
      [
        reply.toolUse({
          name: "Write",
          input: { file_path: "test/run.js", content: snoopScript("validator", 1) },
        }),
        intentReply("handoff"),
        intentReply("closing"),
        // The retry prompt (with the failed check's output) goes back to initial.main.
        reply.toolUse({
          name: "Write",
          input: { file_path: "test/run.js", content: 'console.log("# pass 1");' },
        }),
        intentReply("handoff"),
        intentReply("closing"),
      ],
      cwd,
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const [first] = validatorOutputs(events).tests ?? [];
    // It ran (and failed, so its output went into the retry prompt) with no token to print.
    expect(first).toContain("gh-reversed:\n");
    expect(first).toContain("secret-names:\n");
    expect(requests).toContain("gh-reversed:");
    for (const sink of [journal, requests, JSON.stringify(result), first ?? ""]) {
      expect(sink).not.toContain(reversed(GH_TOKEN));
      expect(sink).not.toContain(GH_TOKEN);
    }
    expect(canaries("validator")).toEqual([]);
    expect(first).not.toContain(`HOME=${hostHome}`);
  });

  it("a validator that declares env: [NPM_TOKEN] sees that one secret and no other; its output is still scrubbed", async () => {
    const cwd = makeSampleRepo();
    writeFileSync(path.join(cwd, "snoop.js"), snoopScript("declared", 0));
    const agent = validatedAgent({
      publish: nodeValidator("snoop.js", { env: ["NPM_TOKEN"] }),
      plain: nodeValidator("snoop.js"),
    });
    const { result, journal, events } = await run(
      agent,
      [intentReply("handoff"), intentReply("closing")],
      cwd,
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const outputs = validatorOutputs(events);
    const declared = outputs.publish?.[0] ?? "";
    const plain = outputs.plain?.[0] ?? "";
    expect(declared).toContain("secret-names:NPM_TOKEN\n");
    expect(declared).toContain(`npm-reversed:${reversed(NPM_TOKEN)}`);
    expect(declared).toContain("npm-plain:[REDACTED NPM_TOKEN]");
    expect(declared).toContain("gh-reversed:\n");
    expect(plain).toContain("secret-names:\n");
    expect(plain).toContain("npm-reversed:\n");
    expect(journal).not.toContain(NPM_TOKEN);
    expect(canaries("declared")).toEqual([]);
  });

  it("a validator's gh has a verification step's rights: it comments on the run's own issue, nothing else", async () => {
    const cwd = makeSampleRepo();
    const gh = installSimpleFakeGh({ issues: { 5: {}, 6: {} } });
    closers.push(async () => {
      const { rmSync } = await import("node:fs");
      rmSync(gh.bin, { recursive: true, force: true });
    });
    const attempt = (command: string): string =>
      `if ${command} >/dev/null 2>&1; then echo "ran: ${command}"; else echo "refused: ${command}"; fi`;
    const agent = validatedAgent({
      report: {
        type: "command",
        command: [
          "gh issue comment 5 --body checked",
          "gh issue comment 6 --body checked",
          "gh issue edit 5 --add-label done",
          "gh issue close 5",
        ]
          .map(attempt)
          .join("; "),
        successWhen: "exitCode:0",
        failurePattern: "failed",
      },
    });
    const { result, events } = await run(
      agent,
      [intentReply("handoff"), intentReply("closing")],
      cwd,
      { ghCommand: gh.gh },
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect((validatorOutputs(events).report?.[0] ?? "").trim().split("\n")).toEqual([
      "ran: gh issue comment 5 --body checked",
      "refused: gh issue comment 6 --body checked",
      "refused: gh issue edit 5 --add-label done",
      "refused: gh issue close 5",
    ]);
    // The run asked gh once which repository it works in, then the broker let one write through.
    expect(gh.calls()).toEqual([
      ["repo", "view", "--json", "nameWithOwner"],
      ["issue", "comment", "5", "--body", "checked"],
    ]);
    expect(gh.issue(5).state).toBe("OPEN");
  });

  it("reaches the network only as runner.boundaries.sandbox.network.allow allows", async () => {
    const { createServer } = await import("node:http");
    let hits = 0;
    const server = createServer((_request, response) => {
      hits++;
      response.end("reached\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const port = (server.address() as { port: number }).port;
    // Through the sandbox's proxy (`--noproxy ''`), and directly (no network interface inside).
    const validators = {
      proxied: {
        type: "command",
        command: `curl -fsS -m 20 --noproxy '' http://127.0.0.1:${port}/`,
        successWhen: "contains:reached",
        failurePattern: "failed",
      },
    };
    const closed = await run(
      validatedAgent(validators, "required", { action: "abort" }),
      [intentReply("handoff"), intentReply("closing")],
      makeSampleRepo(),
    );
    expect(closed.result.success).toBe(false);
    expect(validatorOutputs(closed.events).proxied?.[0]).not.toContain("reached");
    expect(hits).toBe(0);

    const allowed = await run(
      validatedAgent(validators, {
        mode: "required",
        network: { allow: [`127.0.0.1:${port}`] },
      }),
      [intentReply("handoff"), intentReply("closing")],
      makeSampleRepo(),
    );
    expect(allowed.result.success, JSON.stringify(allowed.result.error)).toBe(true);
    expect(hits).toBe(1);
  });

  it('with the sandbox "off" a validator runs on the host, as before, and the run says so', async () => {
    const cwd = makeSampleRepo();
    const marker = path.join(outside, "host-ran");
    writeFileSync(
      path.join(cwd, "host.js"),
      `import fs from "node:fs";\nfs.writeFileSync(${JSON.stringify(marker)}, "x");`,
    );
    const { result, journal } = await run(
      validatedAgent({ host: nodeValidator("host.js") }, "off"),
      [intentReply("handoff"), intentReply("closing")],
      cwd,
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(existsSync(marker)).toBe(true);
    expect(journal).toContain("RUN-SANDBOX-002");
  });
});

describe("git validators read the repository from the sandbox", () => {
  const gitChecks = {
    clean: { command: "git status --porcelain", successWhen: "empty" },
    upstream: {
      command: "git rev-parse --abbrev-ref main@{u}",
      successWhen: "contains:origin/main",
    },
    ahead: { command: "git log --oneline origin/main..HEAD", successWhen: "contains:note" },
    // The positive control: these ran inside the sandbox.
    sandboxed: { command: 'test "$CLIMPT_SANDBOX" = 1', successWhen: "exitCode:0" },
  };
  const validators = Object.fromEntries(
    Object.entries(gitChecks).map(([id, check]) => [
      id,
      { type: "command", failurePattern: "failed", ...check },
    ]),
  );

  /** The sample repository with a local bare `origin` that main tracks. */
  function repoWithOrigin(): string {
    const repo = makeSampleRepo();
    const remote = path.join(tempDirForFile("climpt-origin-"), "origin.git");
    git(repo, "init", "-q", "--bare", "-b", "main", remote);
    git(repo, "remote", "add", "origin", remote);
    git(repo, "push", "-q", "-u", "origin", "main");
    return repo;
  }

  const commitNote = reply.toolUse({
    name: "Bash",
    input: { command: "echo note > note.txt && git add note.txt && git commit -qm note" },
  });

  for (const worktree of [false, true]) {
    it(`git status, @{u} and origin/x..HEAD work in ${worktree ? "--worktree" : "plain"} mode`, async () => {
      const repo = repoWithOrigin();
      const { result, events } = await run(
        validatedAgent(validators, "required", { action: "abort" }),
        [commitNote, intentReply("handoff"), intentReply("closing")],
        repo,
        {},
        {},
        { worktree },
      );
      expect(result.success, JSON.stringify(result.error)).toBe(true);
      const passed = events
        .filter((event) => event.type === "validator")
        .map((event) => event.type === "validator" && `${event.validator}:${event.passed}`);
      expect(passed).toEqual(["clean:true", "upstream:true", "ahead:true", "sandboxed:true"]);
      expect(git(repo, "log", "--format=%s", "main").split("\n")).toContain("note");
    });
  }
});

/** A closure step that runs `node prog.js --issue ${context.issue}` instead of the model. */
function programAgent(env?: readonly string[], timeout = 60_000): string {
  const dir = writeTestAgent({
    name: "program",
    entryStep: "initial.main",
    parameters: {
      issue: { type: "number", description: "The issue", required: true, cli: "--issue" },
    },
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.run" } },
      },
      "closure.run": {
        intents: ["closing"],
        transitions: { closing: { target: null } },
      },
    },
    runner: {
      boundaries: { allowedTools: ["Read", "Write"], permissionMode: "acceptEdits" },
      integrations: { github: { enabled: true } },
    },
  });
  const file = path.join(dir, "steps_registry.json");
  const registry = JSON.parse(readFileSync(file, "utf8")) as {
    steps: Record<string, Record<string, JsonValue>>;
  };
  const step = registry.steps["closure.run"] as Record<string, JsonValue>;
  delete step.structuredGate;
  delete step.transitions;
  delete step.outputSchemaRef;
  step.runner = {
    command: "node",
    args: ["prog.js", "--issue", `\${context.issue}`],
    timeout,
    ...(env === undefined ? {} : { env: [...env] }),
  };
  writeFileSync(file, JSON.stringify(registry));
  return dir;
}

describe("program steps run in the sandbox", () => {
  it("a program the model wrote cannot see GH_TOKEN or leave canaries; its gh calls are brokered as a closure step's", async () => {
    const cwd = makeSampleRepo();
    const gh = installSimpleFakeGh({ issues: { 5: { labels: ["todo"] } } });
    closers.push(async () => {
      const { rmSync } = await import("node:fs");
      rmSync(gh.bin, { recursive: true, force: true });
    });
    const program = [
      snoopScript("program", 0).replace(/process\.exit\(0\);$/, ""),
      'import { execFileSync } from "node:child_process";',
      'const runGh = (...args) => { try { return execFileSync("gh", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }); } catch (error) { return "failed: " + error.stderr; } };',
      // A closure step may edit labels and asks for a close, which is recorded for the hook.
      'console.log("label:" + runGh("issue", "edit", "5", "--add-label", "done"));',
      'console.log("close:" + runGh("issue", "close", "5"));',
    ].join("\n");
    const { result, journal, requests, events } = await run(
      programAgent(),
      [
        reply.toolUse({ name: "Write", input: { file_path: "prog.js", content: program } }),
        intentReply("handoff"),
      ],
      cwd,
      { ghCommand: gh.gh },
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const ran = events.find((event) => event.type === "program");
    const stdout = ran?.type === "program" ? ran.stdout : "";
    expect(stdout).toContain("gh-reversed:\n");
    expect(stdout).toContain("secret-names:\n");
    expect(stdout).toContain("Recorded for the boundary hook");
    for (const sink of [journal, requests, JSON.stringify(result), stdout]) {
      expect(sink).not.toContain(reversed(GH_TOKEN));
      expect(sink).not.toContain(GH_TOKEN);
    }
    expect(canaries("program")).toEqual([]);
    // The label edit ran through the broker; the close waited for the boundary hook.
    expect(gh.issue(5)).toMatchObject({ state: "CLOSED" });
    expect(gh.issue(5).labels).toContain("done");
  });

  it("a program past its timeout is stopped with everything it started, setsid children included", async () => {
    const cwd = makeSampleRepo();
    const marker = `${7000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    writeFileSync(
      path.join(cwd, "prog.js"),
      [
        'import { spawn } from "node:child_process";',
        `spawn("setsid", ["sleep", "${marker}"], { stdio: "ignore", detached: true });`,
        'console.log("started");',
        "setInterval(() => {}, 1000);",
      ].join("\n"),
    );
    const { result, events } = await run(
      programAgent(undefined, 1500),
      [intentReply("handoff")],
      cwd,
      {},
      { issue: 5 },
      { maxIterations: 2 },
    );
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe("RUN-PROGRAM-002");
    expect(result.error?.message).toContain("ran longer than 1500 ms and was stopped");
    const ran = events.find((event) => event.type === "program");
    expect(ran?.type === "program" && ran.stderr).toContain("node timed out after 1500 ms");
    const alive = (): boolean =>
      readdirSync("/proc").some((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          return readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(marker);
        } catch {
          return false;
        }
      });
    let gone = !alive();
    for (let attempt = 0; attempt < 400 && !gone; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      gone = !alive();
    }
    expect(gone).toBe(true);
  });

  it("a program that declares env: [NPM_TOKEN] sees that one secret and no other", async () => {
    const cwd = makeSampleRepo();
    writeFileSync(path.join(cwd, "prog.js"), snoopScript("program-declared", 0));
    const { result, events } = await run(
      programAgent(["NPM_TOKEN"]),
      [intentReply("handoff")],
      cwd,
      {},
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const ran = events.find((event) => event.type === "program");
    const stdout = ran?.type === "program" ? ran.stdout : "";
    expect(stdout).toContain("secret-names:NPM_TOKEN\n");
    expect(stdout).toContain(`npm-reversed:${reversed(NPM_TOKEN)}`);
    expect(stdout).toContain("gh-reversed:\n");
    expect(canaries("program-declared")).toEqual([]);
  });
});

/** An agent whose command boundary hook is `hook`; issue 5 is the run's (`--issue`). */
function hookedAgent(hook: JsonValue): string {
  return writeTestAgent({
    name: "hooked",
    entryStep: "initial.main",
    parameters: {
      issue: { type: "number", description: "The issue", required: true, cli: "--issue" },
    },
    steps: {
      "initial.main": {
        intents: ["handoff"],
        transitions: { handoff: { target: "closure.done" } },
      },
      "closure.done": { intents: ["closing"], transitions: { closing: { target: null } } },
    },
    runner: {
      boundaries: {
        allowedTools: ["Read", "Write"],
        permissionMode: "acceptEdits",
        boundaryHook: hook,
      },
      integrations: { github: { enabled: true } },
    },
  });
}

/** The command hook's action in the run's `boundary_hook` event. */
function hookAction(events: readonly RunEvent[]): { stdout: string; stderr: string; ok: boolean } {
  const hook = events.find((event) => event.type === "boundary_hook");
  const actions = (hook?.type === "boundary_hook" ? hook.actions : []) as Array<
    Record<string, JsonValue>
  >;
  const command = actions.find((action) => action.kind === "command");
  return {
    stdout: String(command?.stdout ?? ""),
    stderr: String(command?.stderr ?? ""),
    ok: command?.ok === true,
  };
}

describe("the command boundary hook runs in the sandbox", () => {
  it("a hook script the model rewrote cannot see GH_TOKEN or leave canaries", async () => {
    const cwd = makeSampleRepo();
    writeFileSync(path.join(cwd, "release.js"), 'console.log("released");\n');
    git(cwd, "add", "release.js");
    git(cwd, "commit", "-qm", "release script");
    const { result, journal, events } = await run(
      hookedAgent("node release.js"),
      [
        // The work step rewrites the script the hook runs after validated completion.
        reply.toolUse({
          name: "Write",
          input: { file_path: "release.js", content: snoopScript("hook", 0) },
        }),
        intentReply("handoff"),
        intentReply("closing"),
      ],
      cwd,
      {},
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const hook = hookAction(events);
    // It ran (the rewritten script), with no token to print.
    expect(hook.stdout).toContain("gh-reversed:\n");
    expect(hook.stdout).toContain("secret-names:\n");
    for (const sink of [journal, JSON.stringify(result), hook.stdout]) {
      expect(sink).not.toContain(reversed(GH_TOKEN));
      expect(sink).not.toContain(GH_TOKEN);
    }
    expect(canaries("hook")).toEqual([]);
    expect(hook.stdout).toMatch(/refused .*canary-hook EROFS/);
  });

  it("a hook that declares env: [NPM_TOKEN] sees that one secret and no other", async () => {
    const cwd = makeSampleRepo();
    writeFileSync(path.join(cwd, "deploy.js"), snoopScript("hook-declared", 0));
    const { result, journal, events } = await run(
      hookedAgent({ command: "node deploy.js", env: ["NPM_TOKEN"] }),
      [intentReply("handoff"), intentReply("closing")],
      cwd,
      {},
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const hook = hookAction(events);
    expect(hook.stdout).toContain("secret-names:NPM_TOKEN\n");
    expect(hook.stdout).toContain(`npm-reversed:${reversed(NPM_TOKEN)}`);
    expect(hook.stdout).toContain("npm-plain:[REDACTED NPM_TOKEN]");
    expect(hook.stdout).toContain("gh-reversed:\n");
    expect(journal).not.toContain(NPM_TOKEN);
    expect(canaries("hook-declared")).toEqual([]);
  });

  it("the hook's gh has a closure step's rights: labels and comments run, its close of the run's issue is performed after it succeeds, another issue is refused", async () => {
    const cwd = makeSampleRepo();
    const gh = installSimpleFakeGh({ issues: { 5: { labels: ["todo"] }, 6: {} } });
    closers.push(async () => {
      const { rmSync } = await import("node:fs");
      rmSync(gh.bin, { recursive: true, force: true });
    });
    const hook = [
      'node -e \'const r = require(process.env.CLIMPT_RESULT_JSON); console.log("run " + r.runId + " issue " + r.issue)\'',
      "gh issue edit 5 --add-label released",
      "gh issue comment 5 --body shipped",
      "gh issue close 5",
      '(gh issue close 6 2>&1 || echo "close 6 refused")',
    ].join(" && ");
    const { result, events } = await run(
      hookedAgent(hook),
      [intentReply("handoff"), intentReply("closing")],
      cwd,
      { ghCommand: gh.gh, env: { PATH: gh.path } },
      { issue: 5 },
    );
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const action = hookAction(events);
    expect(action.ok, action.stderr).toBe(true);
    expect(action.stdout).toContain(`run ${result.runId} issue 5`);
    expect(action.stdout).toContain("Recorded for the boundary hook: close issue #5");
    expect(action.stdout).toContain("close 6 refused");
    expect(action.stdout).toContain("issue #6 is not the run's");
    // The label edit and the comment ran through the broker; the close waited for the command
    // to succeed, then the hook performed it on the host.
    expect(gh.issue(5)).toMatchObject({ state: "CLOSED" });
    expect(gh.issue(5).labels).toContain("released");
    expect(gh.issue(6)).toMatchObject({ state: "OPEN" });
    const hookEvent = events.find((event) => event.type === "boundary_hook");
    const kinds =
      hookEvent?.type === "boundary_hook"
        ? (hookEvent.actions as Array<Record<string, JsonValue>>).map(
            (entry) => `${entry.kind} ${(entry.command as string[]).slice(0, 4).join(" ")}`,
          )
        : [];
    expect(kinds).toEqual([`command sh -c ${hook}`, "close gh issue close 5"]);
  });
});
