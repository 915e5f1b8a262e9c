/**
 * Names that are also properties of every JavaScript object — `__proto__`, `constructor`,
 * `toString`, … — as step ids, the entry step, transition targets, conditional target values,
 * handoff keys, validator and failure-pattern ids and parameter names, through load, analysis,
 * routing and a whole run against the fake Messages API. They work exactly as any other name
 * does: a lookup finds only what the agent declared, never Object.prototype's member, and
 * `__proto__` is an entry like the others.
 *
 * Every (name, role) pair is covered: run `i` gives role `r` the name `NAMES[(i + r) % n]`, so
 * each run has every role named by one of these names at once, and over the runs each name
 * takes each role. A model's values (a handoff value that selects a conditional target, a jump
 * target) are drawn from the same names.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "@climpt/model";
import { createAnthropicClient } from "@climpt/sdk-adapter";
import { type FakeAnthropic, startFakeAnthropic } from "@climpt/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { intentReply } from "./agents.test-helper.ts";
import { checkAgent } from "./definition-checks/check-agent.ts";
import { loadAgentDefinition } from "./run/agent-location.ts";
import { makeSampleRepo } from "./runner.test-helper.ts";
import { StepFlowRunner } from "./step-flow-runner.ts";
import { tempDirForFile } from "./temp-dirs.test-helper.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took up to 20 s at load 13–25.
vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

/** Object.prototype's members, and `prototype`, which some libraries refuse as a key. */
const NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupSetter__",
  "prototype",
] as const;

/** The names one agent uses, by role. */
interface Names {
  readonly first: string;
  readonly chosen: string;
  readonly other: string;
  readonly closure: string;
  readonly key: string;
  readonly value: string;
  readonly validator: string;
  readonly pattern: string;
  readonly parameter: string;
}

const ROLES = [
  "first",
  "chosen",
  "other",
  "closure",
  "key",
  "value",
  "validator",
  "pattern",
  "parameter",
] as const satisfies readonly (keyof Names)[];

function namesOfRun(run: number): Names {
  const entries = ROLES.map((role, index) => [role, NAMES[(run + index) % NAMES.length]]);
  return Object.fromEntries(entries) as unknown as Names;
}

/** An object with exactly these entries, `__proto__` included (JSON.stringify writes it). */
function record(entries: readonly (readonly [string, JsonValue])[]): Record<string, JsonValue> {
  return Object.fromEntries(entries) as Record<string, JsonValue>;
}

const action = (intents: readonly string[]): JsonValue => ({
  type: "object",
  required: ["action"],
  properties: {
    action: { type: "string", enum: [...intents] },
    reason: { type: "string" },
    target: { type: "string" },
  },
});

/**
 * A gate-dialect agent: `first` routes `next` on its handoff `key` (`value` → `chosen`, else
 * `other`); both hand off to `closure`, validated by `validator` (failure pattern `pattern`);
 * `chosen` reads the handoff value and `closure` the parameter in their prompts. Prompt folders
 * do not come from the ids, so every name finds its prompt.
 */
function writeAgent(names: Names): string {
  const dir = path.join(tempDirForFile("climpt-object-keys-"), "keys");
  const write = (relative: string, content: unknown): void => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(
      path.join(dir, relative),
      typeof content === "string" ? content : JSON.stringify(content),
    );
  };
  const gate = (intents: readonly string[], handoffFields: readonly string[] = []) => ({
    allowedIntents: [...intents],
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    targetField: "next_action.target",
    handoffFields: [...handoffFields],
  });
  const step = (id: string, kind: string, c3: string, extra: Record<string, JsonValue>) => ({
    stepId: id,
    stepKind: kind,
    c2: kind === "closure" ? "closure" : "work",
    c3,
    edition: "default",
    outputSchemaRef: { file: "steps.schema.json", schema: `#/definitions/${c3}` },
    ...extra,
  });
  const handoffName = `${names.first.replaceAll(".", "_")}_${names.key}`;
  write("agent.json", {
    name: "keys",
    parameters: record([
      [names.parameter, { type: "string", required: false, default: "none", cli: "--named" }],
    ]),
    runner: {
      flow: { systemPromptPath: "prompts/system.md", prompts: { registry: "steps_registry.json" } },
      verdict: { type: "detect:graph", config: {} },
      boundaries: { allowedTools: ["Read"], permissionMode: "acceptEdits" },
      logging: { directory: "tmp/climpt/logs", format: "jsonl" },
    },
  });
  write("prompts/system.md", "You are a test agent.");
  write("prompts/steps/work/first/f_default.md", "Decide.");
  write("prompts/steps/work/chosen/f_default.md", `Chosen for {uv-${handoffName}}.`);
  write("prompts/steps/work/other/f_default.md", "The other way.");
  write("prompts/steps/closure/done/f_default.md", `Close for {uv-${names.parameter}}.`);
  write("prompts/steps/retry/done/f_failed_fix.md", `Fix it (exit {{${names.key}}}).`);
  write("schemas/steps.schema.json", {
    definitions: {
      first: {
        type: "object",
        required: ["next_action"],
        properties: {
          next_action: action(["next", "repeat"]),
          analysis: { type: "object", additionalProperties: { type: "string" } },
        },
      },
      chosen: { type: "object", properties: { next_action: action(["handoff", "jump"]) } },
      other: { type: "object", properties: { next_action: action(["handoff", "jump"]) } },
      done: { type: "object", properties: { next_action: action(["closing", "repeat"]) } },
    },
  });
  const handOn = (id: string, c3: string) =>
    step(id, "work", c3, {
      structuredGate: gate(["handoff", "jump"]),
      transitions: { handoff: { target: names.closure }, jump: { target: names.first } },
    });
  write("steps_registry.json", {
    agentId: "keys",
    version: "1.0.0",
    c1: "steps",
    entryStep: names.first,
    steps: record([
      [
        names.first,
        step(names.first, "work", "first", {
          structuredGate: gate(["next", "repeat"], [`analysis.${names.key}`]),
          transitions: {
            next: {
              condition: names.key,
              targets: record([
                [names.value, names.chosen],
                ["default", names.other],
              ]),
            },
            repeat: { target: names.first },
          },
        }),
      ],
      [names.chosen, handOn(names.chosen, "chosen")],
      [names.other, handOn(names.other, "other")],
      [
        names.closure,
        step(names.closure, "closure", "done", {
          structuredGate: gate(["closing", "repeat"]),
          transitions: { closing: { target: null }, repeat: { target: names.closure } },
        }),
      ],
    ]),
    validators: record([
      [
        names.validator,
        {
          type: "command",
          // Fails once, then passes: the retry path keys its state by the closure step's id.
          command: "test -f .validated || { touch .validated; exit 1; }",
          successWhen: "exitCode:0",
          failurePattern: names.pattern,
          extractParams: record([[names.key, "exitCode"]]),
        },
      ],
    ]),
    failurePatterns: record([
      [
        names.pattern,
        { description: "x", edition: "failed", adaptation: "fix", params: [names.key] },
      ],
    ]),
    validationSteps: record([
      [
        names.closure,
        {
          stepId: names.closure,
          c2: "retry",
          c3: "done",
          validationConditions: [{ validator: names.validator }],
          onFailure: { action: "retry", maxAttempts: 2 },
        },
      ],
    ]),
  });
  return dir;
}

let fake: FakeAnthropic;
/**
 * One sample repository, committed once; each run works in a copy of it (`.git` included). A
 * copy is a few file writes where a fresh repository is five git processes, and the 24 runs here
 * need nothing but an equal starting point.
 */
let sampleRepo: string;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  sampleRepo = makeSampleRepo();
});

/** A fresh copy of the committed sample repository for one run. */
function sampleRepoCopy(): string {
  const dir = tempDirForFile("climpt-object-keys-repo-");
  cpSync(sampleRepo, dir, { recursive: true });
  return dir;
}
afterAll(() => fake.close());

async function run(names: Names, replies: readonly ReturnType<typeof intentReply>[]) {
  const loaded = await loadAgentDefinition(writeAgent(names));
  fake.reset();
  fake.enqueue(...replies);
  const result = await new StepFlowRunner(loaded, {
    modelClient: createAnthropicClient({ apiKey: "sk-test-key", baseURL: fake.url, maxRetries: 0 }),
    fsync: false,
  }).run({ cwd: sampleRepoCopy(), args: record([[names.parameter, "the-argument"]]) });
  const prompts = fake.messageRequests().map((request) => request.rawBody);
  return { result, prompts, trace: traceOf(result.journalPath) };
}

/**
 * What a failed case needs to be understood from CI's output alone (one failed there once, asking
 * for a sixth reply, and never again in hundreds of runs): each request the fake received — which
 * step sent it, from which client — and the journal's events with their step and outcome.
 */
function traceOf(journalPath: string | null | undefined): string {
  const requests = fake.requests.map(
    (request) =>
      `#${request.index} ${request.method} ${request.path} step=${request.headers["x-climpt-step"] ?? "-"} ua=${request.headers["user-agent"] ?? "-"}`,
  );
  const events =
    typeof journalPath === "string"
      ? readFileSync(journalPath, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => {
            const event = JSON.parse(line) as Record<string, unknown>;
            const detail = ["stepId", "intent", "passed", "exitCode", "code", "reason"]
              .filter((key) => event[key] !== undefined)
              .map((key) => `${key}=${JSON.stringify(event[key])}`);
            return [String(event.type), ...detail].join(" ");
          })
      : ["(no journal)"];
  return ["requests:", ...requests, "journal:", ...events].join("\n");
}

describe("object-property names as an agent's names and a model's values", () => {
  it("load and analysis find nothing wrong with any of them in any role", async () => {
    for (let index = 0; index < NAMES.length; index++) {
      const names = namesOfRun(index);
      const checked = await checkAgent(writeAgent(names));
      const errors = [...checked.problems, ...checked.findings].filter(
        (problem) => problem.severity !== "warning",
      );
      expect(errors, JSON.stringify(names)).toEqual([]);
    }
  });

  for (let index = 0; index < NAMES.length; index++) {
    const names = namesOfRun(index);
    it(`routes a run by them: ${JSON.stringify(names)}`, async () => {
      // The handoff value the model writes selects `chosen`; the prompt of `chosen` carries it.
      // The first closing fails validation once, so the run goes back to `chosen` with the
      // failure pattern's retry prompt and closes again.
      const { result, prompts, trace } = await run(names, [
        intentReply("next", { analysis: record([[names.key, names.value]]) }),
        intentReply("handoff"),
        intentReply("closing"),
        intentReply("handoff"),
        intentReply("closing"),
      ]);
      expect(result.error, `${JSON.stringify(result.error)}\n${trace}`).toBeUndefined();
      expect(result.success).toBe(true);
      expect(result.state.history.map((entry) => entry.stepId)).toEqual([
        names.first,
        names.chosen,
        names.closure,
        names.chosen,
        names.closure,
      ]);
      expect(prompts[1]).toContain(`Chosen for ${names.value}.`);
      expect(prompts[2]).toContain("Close for the-argument.");
      expect(prompts[3]).toContain("Fix it (exit 1).");
    });
  }

  it("a handoff value that is another such name falls back to the default target", async () => {
    const names = namesOfRun(0);
    const { result } = await run(names, [
      intentReply("next", { analysis: record([[names.key, "hasOwnProperty"]]) }),
      intentReply("handoff"),
      intentReply("closing"),
      intentReply("handoff"),
      intentReply("closing"),
    ]);
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    expect(result.state.history.map((entry) => entry.stepId).slice(0, 3)).toEqual([
      names.first,
      names.other,
      names.closure,
    ]);
  });

  it("resumes an interrupted run whose step id, handoff key and parameter are __proto__", async () => {
    const names: Names = {
      first: "__proto__",
      chosen: "constructor",
      other: "toString",
      closure: "hasOwnProperty",
      key: "__proto__",
      value: "constructor",
      validator: "__proto__",
      pattern: "__proto__",
      parameter: "__proto__",
    };
    const loaded = await loadAgentDefinition(writeAgent(names));
    const runner = new StepFlowRunner(loaded, {
      modelClient: createAnthropicClient({
        apiKey: "sk-test-key",
        baseURL: fake.url,
        maxRetries: 0,
      }),
      fsync: false,
    });
    const cwd = sampleRepoCopy();
    fake.reset();
    fake.enqueue(
      intentReply("next", { analysis: record([[names.key, names.value]]) }),
      intentReply("handoff"),
      { kind: "hang" },
    );
    const controller = new AbortController();
    const running = runner.run({
      cwd,
      args: record([[names.parameter, "the-argument"]]),
      signal: controller.signal,
    });
    while (fake.messageRequests().length < 3) await new Promise((done) => setTimeout(done, 20));
    controller.abort();
    const stopped = await running;
    expect(stopped.error?.code).toBe("AGENT_INTERRUPTED");
    expect(stopped.resumable).toBe(true);

    fake.reset();
    fake.enqueue(intentReply("closing"), intentReply("handoff"), intentReply("closing"));
    const resumed = await runner.run({ resume: stopped.runId, cwd });
    expect(resumed.error, JSON.stringify(resumed.error)).toBeUndefined();
    expect(resumed.state.history.map((entry) => entry.stepId)).toEqual([
      names.first,
      names.chosen,
      names.closure,
      names.chosen,
      names.closure,
    ]);
    expect(resumed.state.handoff[names.first]).toEqual(record([[names.key, names.value]]));
    const prompts = fake.messageRequests().map((request) => request.rawBody);
    expect(prompts[0]).toContain("Close for the-argument.");
  });

  // The agent's own names are plain here, so every one of the names above names no step.
  const plain = Object.fromEntries(ROLES.map((role) => [role, `${role}-step`])) as unknown as Names;
  for (const target of NAMES) {
    it(`a jump to "${target}", which names no step, is a coded failure`, async () => {
      const names = plain;
      const { result } = await run(names, [
        intentReply("next", { analysis: record([[names.key, names.value]]) }),
        intentReply("jump", { next_action: { action: "jump", target } }),
      ]);
      expect(result.success).toBe(false);
      expect(result.error?.code).toMatch(/^[A-Z]+-[A-Z]+-\d{3}$/);
      expect(result.error?.message).toContain(target);
    });
  }
});
