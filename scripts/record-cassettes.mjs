// Records the examples' cassettes: each example agent runs against the scripted fake Messages API
// (examples/fake-models/<agent>.json) through the real SDK, and every exchange is written to
// examples/cassettes/<agent>.jsonl. This machine has no Claude access, so the "model" is that
// script; with ANTHROPIC_API_KEY set and --live, the same command records a real model instead.
//   node scripts/record-cassettes.mjs [--live] [--agent NAME]
import { createRequire } from "node:module";
import path from "node:path";
import { loadAgentDefinition, StepFlowRunner } from "@climpt/runner";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { loadFakeScript, startFakeAnthropic } from "@climpt/testing";
import { makeSampleRepo, ROOT } from "./sample-repo.mjs";

const live = process.argv.includes("--live");
const only = process.argv.includes("--agent")
  ? process.argv[process.argv.indexOf("--agent") + 1]
  : undefined;

/**
 * mcp-notes' server is `npx -y @modelcontextprotocol/server-filesystem`, which needs the network;
 * recording runs the same server from the workspace's install instead. The cassette does not
 * depend on how it was started (the requests hold the tools it lists and what they returned), and
 * a replay starts no server at all.
 */
function installedFilesystemServer() {
  const require = createRequire(path.join(ROOT, "apps", "cli", "package.json"));
  const dir = path.dirname(require.resolve("@modelcontextprotocol/server-filesystem/package.json"));
  return {
    transport: "stdio",
    command: process.execPath,
    args: [path.join(dir, "dist", "index.js"), "."],
    env: {},
  };
}

const examples = [
  { agent: "fix-bug", args: { issue: 1 } },
  { agent: "code-improver", args: { topic: "slugify output" } },
  {
    agent: "mcp-notes",
    args: { task: "Write NOTES.md about this repository" },
    mcpServers: () => ({ files: installedFilesystemServer() }),
  },
].filter((example) => only === undefined || example.agent === only);
for (const { agent, args, mcpServers } of examples) {
  const fake = live ? undefined : await startFakeAnthropic();
  if (fake)
    fake.enqueue(
      ...(await loadFakeScript(path.join(ROOT, "examples", "fake-models", `${agent}.json`)))
        .replies,
    );
  const cassette = path.join(ROOT, "examples", "cassettes", `${agent}.jsonl`);
  const definition = await loadAgentDefinition(path.join(ROOT, "examples", "agents", agent));
  const loaded =
    mcpServers === undefined
      ? definition
      : { ...definition, agent: { ...definition.agent, mcpServers: mcpServers() } };
  const runner = new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient(
      fake ? { apiKey: "recording-without-a-key", baseURL: fake.url } : {},
    ),
    journalDir: false,
  });
  const result = await runner.run({ args, cwd: makeSampleRepo(), record: cassette });
  await fake?.close();
  console.log(
    `${agent}: ${result.success ? "completed" : `FAILED ${result.error?.code}`} in ${result.iterations} iterations → ${path.relative(ROOT, cassette)}`,
  );
  if (!result.success) process.exitCode = 1;
}
