// The bundled demo (examples/agents/fix-bug on a fresh copy of examples/sample-repo) run once per
// executor through the built CLI (`climpt run --executor messages|claude-code`) against the fake
// Messages API: wall time, iterations, usage and cost, requests and request bytes of a whole run.
// The Claude Code run gets the demo's fake-model script in the form Claude Code needs
// (StructuredOutput calls, absolute paths, a Read before an Edit, `git add -u`). Needs
// `pnpm build` first. Prints numbers; asserts nothing.
//   pnpm --filter @climpt/claude-code bench:demo
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadFakeScript, startFakeAnthropic } from "@climpt/testing";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = path.join(ROOT, "apps/cli/dist/bin.mjs");
const IDENTITY = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@climpt.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@climpt.invalid",
};
const made = [];

function tempDir(prefix) {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

function sampleRepo() {
  const dir = tempDir("climpt-demo-bench-");
  cpSync(path.join(ROOT, "examples/sample-repo"), dir, { recursive: true });
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "-A"],
    ["commit", "-qm", "init"],
  ]) {
    execFileSync("git", args, { cwd: dir, env: { ...process.env, ...IDENTITY } });
  }
  return dir;
}

let ids = 0;
function intentJson(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && "next_action" in value
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** The same answers as a model driving Claude Code gives them (see the README, "In a run"). */
function forClaudeCode(replies, cwd) {
  const out = [];
  let read = new Set();
  for (const reply of replies) {
    const content = [];
    let endsStep = false;
    for (const block of reply.content) {
      const output = block.type === "text" ? intentJson(block.text) : undefined;
      if (output !== undefined) {
        endsStep = true;
        content.push({
          type: "tool_use",
          id: `toolu_out_${++ids}`,
          name: "StructuredOutput",
          input: output,
        });
        continue;
      }
      if (block.type !== "tool_use") {
        content.push(block);
        continue;
      }
      const input = { ...block.input };
      if (typeof input.command === "string")
        input.command = input.command.replace("git add -A", "git add -u");
      if (typeof input.file_path === "string") {
        const file = path.resolve(cwd, input.file_path);
        input.file_path = file;
        if (block.name === "Read") read.add(file);
        if (block.name === "Edit" && !read.has(file)) {
          out.push({
            kind: "message",
            content: [
              {
                type: "tool_use",
                id: `toolu_read_${++ids}`,
                name: "Read",
                input: { file_path: file },
              },
            ],
          });
          read.add(file);
        }
      }
      content.push({ ...block, input });
    }
    out.push({ ...reply, content });
    if (endsStep) read = new Set();
  }
  return out;
}

function runCli(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.on("close", () => resolve(stdout));
  });
}

const fake = await startFakeAnthropic();
const script = await loadFakeScript(path.join(ROOT, "examples/fake-models/fix-bug.json"));
const home = tempDir("climpt-demo-bench-home-");
mkdirSync(path.join(home, ".claude"));
try {
  for (const executor of ["messages", "claude-code"]) {
    const cwd = sampleRepo();
    fake.reset();
    fake.enqueue(
      ...(executor === "messages" ? script.replies : forClaudeCode(script.replies, cwd)),
    );
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-ant-bench-key-0123456789",
      ...IDENTITY,
    };
    const agent = path.join(ROOT, "examples/agents/fix-bug");
    const started = performance.now();
    const stdout = await runCli(
      ["run", agent, "--cwd", cwd, "--issue", "1", "--json", "--executor", executor],
      env,
    );
    const wallMs = Math.round(performance.now() - started);
    const result = JSON.parse(stdout);
    const requests = fake.messageRequests();
    console.log(
      JSON.stringify({
        executor,
        success: result.success,
        iterations: result.iterations,
        wallMs,
        usage: result.usage,
        requests: requests.length,
        paths: [...new Set(fake.requests.map((request) => `${request.method} ${request.path}`))],
        firstRequestBytes: requests[0]?.rawBody.length,
        requestBytes: requests.reduce((sum, request) => sum + request.rawBody.length, 0),
      }),
    );
  }
} finally {
  await fake.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}
