// What an executor adds to each step over the model's own time: a chain of one-call steps
// (s1 → s2 → … → sN, each answering `next` with a fixed model latency the fake Messages API
// waits before it replies) through the StepExecutor seam, timed from the runner's hand-over to
// the step's result. Per step: wall time minus the model's latency, and the CPU of this process
// plus its children (Claude Code processes, counted once they have exited). Between two steps
// the bench waits ROUTER_MS, standing for the validators and the router.
//
// Rows: the default executor (@climpt/sdk-adapter's runStep), the Claude Code executor cold
// (a fresh session per step) and warm (given the steps, it starts the next step's session ahead:
// README, "Warm start"). Plain JavaScript on the built packages. Prints numbers; asserts nothing.
//   pnpm --filter @climpt/claude-code bench:overhead
//   STEPS=6 LATENCY_MS=1000 ROUTER_MS=5 ROWS=default,cold,warm
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAnthropicClient, runStep } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { createToolbox } from "@climpt/tools";
import { agent, KEY, system } from "./bench-agent.mjs";

// CLAUDE_CODE_DIST: another build of this package (another checkout's dist), for a before/after.
const { createClaudeCodeStepExecutor } = await import(
  process.env.CLAUDE_CODE_DIST ?? "../dist/index.mjs"
);

const STEPS = Number(process.env.STEPS ?? 6);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 1000);
const ROUTER_MS = Number(process.env.ROUTER_MS ?? 5);
const ROWS = (process.env.ROWS ?? "default,cold,warm").split(",");
const schema = {
  type: "object",
  properties: {
    next_action: {
      type: "object",
      properties: { action: { type: "string", enum: ["next", "closing"] } },
      required: ["action"],
    },
    summary: { type: "string" },
  },
  required: ["next_action", "summary"],
};
function stepNumbered(n) {
  const last = n === STEPS;
  return {
    id: `s${n}`,
    kind: "work",
    kindSource: "declared",
    prompt: { kind: "c3l", c1: "steps", c2: "work", c3: `s${n}`, edition: "default" },
    uvVariables: [],
    usesStdin: false,
    outputSchema: schema,
    gate: {
      allowedIntents: ["next", "closing"],
      intentSchemaRef: "#/properties/next_action/properties/action",
      intentField: "next_action.action",
      handoffFields: [],
      failFast: true,
    },
    transitions: last
      ? { closing: { kind: "target", target: null } }
      : { next: { kind: "target", target: `s${n + 1}` } },
    iterations: { min: 1, max: 1 },
    handoff: [],
    permissions: {},
  };
}
const steps = Object.fromEntries(
  Array.from({ length: STEPS }, (_, i) => [`s${i + 1}`, stepNumbered(i + 1)]),
);
const answerOf = (n) => ({
  next_action: { action: n === STEPS ? "closing" : "next" },
  summary: `step ${n} done`,
});

/** CPU of this process and of its exited children, in ms (/proc/self/stat, 100 Hz ticks). */
function cpuMs() {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks * 10;
}

const fake = await startFakeAnthropic();
const home = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-home-")));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: KEY,
};
const client = createAnthropicClient({ apiKey: KEY, baseURL: fake.url });
const observer = {
  modelRequest() {},
  modelResponse() {},
  toolCall() {},
  toolResult() {},
  durable: async () => undefined,
  toolRefused() {},
};

async function chain(row, cwd) {
  const executor =
    row === "default"
      ? undefined
      : createClaudeCodeStepExecutor({ env, maxRetries: 0 }, row === "warm" ? { steps } : {});
  const controller = new AbortController();
  const added = [];
  for (let n = 1; n <= STEPS; n++) {
    const stepStarted = performance.now();
    const step = steps[`s${n}`];
    const answer = answerOf(n);
    fake.enqueue(
      row === "default"
        ? { ...reply.json(answer), delayMs: LATENCY_MS }
        : { ...reply.toolUse({ name: "StructuredOutput", input: answer }), delayMs: LATENCY_MS },
    );
    const tools = createToolbox({ cwd, agent, step });
    if (executor === undefined) {
      await runStep({
        client,
        model: "sonnet",
        system,
        prompt: `Do step ${n}.`,
        outputSchema: schema,
        tools,
      });
    } else {
      const result = await executor.execute({
        model: "claude-sonnet-4-5",
        system,
        prompt: `Do step ${n}.`,
        outputSchema: schema,
        tools,
        maxTurns: undefined,
        callTimeoutMs: undefined,
        signal: controller.signal,
        replay: undefined,
        observer,
        step,
        agent,
        cwd,
      });
      if (!result.ok) throw new Error(`step ${n}: ${JSON.stringify(result.error)}`);
    }
    added.push(Math.round(performance.now() - stepStarted - LATENCY_MS));
    await new Promise((resolve) => setTimeout(resolve, ROUTER_MS));
  }
  executor?.close?.();
  return added;
}

async function settle() {
  // Claude Code processes are counted once reaped: give the last ones time to exit.
  await new Promise((resolve) => setTimeout(resolve, 3000));
}

const rows = [];
for (const row of ROWS) {
  const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-")));
  writeFileSync(path.join(cwd, "greet.js"), 'export const greet = (n) => "Hello " + n;\n');
  fake.reset();
  await settle();
  const cpu0 = cpuMs();
  const started = performance.now();
  const added = await chain(row, cwd);
  const later = added.slice(1).sort((a, b) => a - b);
  const wall = performance.now() - started - ROUTER_MS * STEPS;
  await settle();
  const cpu = cpuMs() - cpu0;
  rows.push({
    executor: row === "default" ? "default (messages)" : `claude-code ${row}`,
    steps: STEPS,
    "model ms/step": LATENCY_MS,
    "wall ms/step": Math.round(wall / STEPS),
    "added ms/step": Math.round(wall / STEPS - LATENCY_MS),
    "added ms, step 1": added[0],
    "added ms, steps 2+ (p50)": later[Math.floor(later.length / 2)],
    "CPU ms/step": Math.round(cpu / STEPS),
    requests: fake.messageRequests().length,
  });
  rmSync(cwd, { recursive: true, force: true });
}
console.log(
  `${STEPS} one-call steps, model latency ${LATENCY_MS} ms, ${ROUTER_MS} ms between steps (validators + router), fake API`,
);
console.table(rows);
await fake.close();
rmSync(home, { recursive: true, force: true });
