// One three-call step (Read, Edit, then the structured output) run through both executors against
// the fake Messages API with zero latency: what a step costs in wall time, requests, request
// bytes and input tokens when nothing but the executor differs. Plain JavaScript on the built
// packages, so it runs on Node 20. Prints numbers; asserts nothing.
//   pnpm --filter @climpt/claude-code bench        (BENCH_ITERATIONS=5 by default)
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAnthropicClient, runStep } from "@climpt/sdk-adapter";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { createToolbox } from "@climpt/tools";
import { createClaudeCodeExecutor } from "../dist/index.mjs";
import { agent, KEY, system } from "./bench-agent.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5);
const schema = {
  type: "object",
  properties: { intent: { type: "string", enum: ["next", "repeat"] }, summary: { type: "string" } },
  required: ["intent", "summary"],
};
const answer = { intent: "next", summary: "fixed the variable" };
const step = {
  id: "initial.issue",
  kind: "work",
  kindSource: "declared",
  prompt: { kind: "c3l", c1: "steps", c2: "initial", c3: "issue", edition: "default" },
  uvVariables: [],
  usesStdin: false,
  transitions: {},
  iterations: { min: 1, max: 1 },
  handoff: [],
  permissions: {},
};

const fake = await startFakeAnthropic();
const home = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-home-")));

function script(cwd, structuredAsTool) {
  const file = path.join(cwd, "greet.js");
  return [
    reply.toolUse({
      name: "Read",
      input: structuredAsTool ? { file_path: file } : { file_path: "greet.js" },
    }),
    reply.toolUse({
      name: "Edit",
      input: {
        file_path: structuredAsTool ? file : "greet.js",
        old_string: "+ m;",
        new_string: "+ n;",
      },
    }),
    structuredAsTool
      ? reply.toolUse({ name: "StructuredOutput", input: answer })
      : reply.json(answer),
  ];
}

function freshRepo() {
  const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), "climpt-bench-")));
  writeFileSync(path.join(cwd, "greet.js"), 'export const greet = (n) => "Hello " + m;\n');
  return cwd;
}

const defaultClient = createAnthropicClient({ apiKey: KEY, baseURL: fake.url });
const executor = createClaudeCodeExecutor({
  env: {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
  },
  maxRetries: 0,
});

const runners = {
  default: async (cwd) => {
    fake.enqueue(...script(cwd, false));
    const tools = createToolbox({ cwd, agent, step });
    return runStep({
      client: defaultClient,
      model: "sonnet",
      system,
      prompt: "Fix greet.js.",
      outputSchema: schema,
      tools,
    });
  },
  "claude-code": async (cwd) => {
    fake.enqueue(...script(cwd, true));
    return executor.runStep({
      model: "sonnet",
      system,
      prompt: "Fix greet.js.",
      outputSchema: schema,
      cwd,
      agent,
      step,
    });
  },
};

const rows = [];
for (const [name, run] of Object.entries(runners)) {
  const times = [];
  let last;
  for (let i = 0; i < ITERATIONS; i++) {
    const cwd = freshRepo();
    fake.reset();
    const started = performance.now();
    last = await run(cwd);
    times.push(performance.now() - started);
    rmSync(cwd, { recursive: true, force: true });
  }
  const requests = fake.messageRequests();
  const bytes = requests.reduce((sum, request) => sum + Buffer.byteLength(request.rawBody), 0);
  const u = last.usage;
  times.sort((a, b) => a - b);
  rows.push({
    executor: name,
    "wall p50 ms": Math.round(times[Math.floor(times.length / 2)]),
    "wall max ms": Math.round(times[times.length - 1]),
    requests: requests.length,
    "request KiB": Math.round(bytes / 1024),
    "first request KiB": Math.round(Buffer.byteLength(requests[0].rawBody) / 1024),
    "prompt tokens": u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens,
    "cache reads": u.cacheReadInputTokens,
    "cost USD": Number(last.costUsd.toFixed(5)),
  });
}
console.log(
  `one step, 3 model calls, ${ITERATIONS} runs each, fake API (pseudo tokens: 1 per 4 bytes)`,
);
console.table(rows);
await fake.close();
rmSync(home, { recursive: true, force: true });
