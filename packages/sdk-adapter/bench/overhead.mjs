// The adapter's own overhead per call, against the fake Messages API with zero latency.
// Plain JavaScript on the built package, so it runs on Node 20 (no TypeScript stripping).
// Compares a raw fetch of the very same request bytes (the floor: HTTP + JSON/SSE on loopback)
// with the SDK called directly, the adapter's call(), and a whole one-call runStep.
import Anthropic from "@anthropic-ai/sdk";
import { reply, startFakeAnthropic } from "@climpt/testing";
import { createAnthropicClient, runStep } from "../dist/index.mjs";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 50;
const KEY = "sk-ant-bench-key";

const schema = {
  type: "object",
  properties: { intent: { type: "string", enum: ["next", "repeat"] }, summary: { type: "string" } },
  required: ["intent", "summary"],
  additionalProperties: false,
};
const answer = {
  intent: "next",
  summary: "A summary of about this many words, to stream a little.",
};
const request = {
  model: "haiku",
  system: "You are a benchmark agent. ".repeat(40),
  messages: [{ role: "user", content: "Report your intent." }],
  outputSchema: schema,
  maxTokens: 4096,
};

const fake = await startFakeAnthropic();
fake.setHandler(() => reply.json(answer));

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

// The exact bytes the adapter sends, captured once per mode, for the raw fetch baseline.
async function capturedBody(stream) {
  fake.reset();
  await createAnthropicClient({ apiKey: KEY, baseURL: fake.url, stream }).call(request);
  return fake.messageRequests()[0].rawBody;
}
const headers = {
  "content-type": "application/json",
  authorization: `Bearer ${KEY}`,
  "anthropic-version": "2026-10-21",
};
const plainBody = await capturedBody(false);
const streamBody = await capturedBody(true);
const url = `${fake.url}/v1/messages`;

const sdk = new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 });
const sdkParams = JSON.parse(plainBody);
const adapterPlain = createAnthropicClient({ apiKey: KEY, baseURL: fake.url, stream: false });
const adapterStream = createAnthropicClient({ apiKey: KEY, baseURL: fake.url });

const rows = [
  [
    "raw fetch, JSON",
    () => fetch(url, { method: "POST", headers, body: plainBody }).then((r) => r.json()),
  ],
  ["SDK messages.create", () => sdk.messages.create(sdkParams)],
  ["adapter call(), JSON", () => adapterPlain.call(request)],
  [
    "raw fetch, SSE",
    () => fetch(url, { method: "POST", headers, body: streamBody }).then((r) => r.text()),
  ],
  ["SDK messages.stream", () => sdk.messages.stream({ ...sdkParams }).finalMessage()],
  ["adapter call(), stream", () => adapterStream.call(request)],
  [
    "runStep, 1 call, stream",
    () =>
      runStep({
        client: adapterStream,
        model: "haiku",
        system: request.system,
        prompt: "Report your intent.",
        outputSchema: schema,
        maxTokens: 4096,
      }),
  ],
];

const results = [];
for (const [name, fn] of rows) {
  fake.reset();
  results.push([name, await measure(fn)]);
}
await fake.close();

const byName = Object.fromEntries(results);
console.log(
  `node ${process.version}, ${ITERATIONS} calls each after ${WARMUP} warm-up, fake API on loopback, zero latency`,
);
console.log("what                        p50 ms   p99 ms");
for (const [name, { p50, p99 }] of results) {
  console.log(`${name.padEnd(26)} ${p50.toFixed(3).padStart(8)} ${p99.toFixed(3).padStart(8)}`);
}
const over = (a, b) => (byName[a].p50 - byName[b].p50).toFixed(3);
console.log(
  `adapter+SDK over raw fetch (p50): JSON ${over("adapter call(), JSON", "raw fetch, JSON")} ms, stream ${over("adapter call(), stream", "raw fetch, SSE")} ms`,
);
console.log(
  `adapter alone over the SDK (p50): JSON ${over("adapter call(), JSON", "SDK messages.create")} ms, stream ${over("adapter call(), stream", "SDK messages.stream")} ms`,
);
