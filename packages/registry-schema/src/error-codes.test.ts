/**
 * One test per load-time error code: a valid agent folder with one mistake, loaded with
 * `loadAgent`, must report that code in the right file at the right JSON path, and the formatted
 * problem a user reads must name both.
 */

import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { formatProblem, type Problem } from "@climpt/model";
import {
  type AgentFolderFiles,
  demoAgent,
  type Json,
  type JsonRecord,
  removeAgentFolders,
  writeAgentFolder,
} from "@climpt/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { generateOutputSchema } from "./generate-output-schema.ts";
import { loadAgent } from "./load-agent.ts";

// This file's hang limit (vitest.shared.ts): its slowest test or hook took 9 s beside two CPU loops at load 25.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

function record(value: Json | undefined): JsonRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("test setup: expected an object");
  }
  return value;
}

const steps = (files: AgentFolderFiles) => record(files.registry.steps);
const step = (files: AgentFolderFiles, id: string) => record(steps(files)[id]);
const gate = (files: AgentFolderFiles, id: string) => record(step(files, id).structuredGate);
const transitions = (files: AgentFolderFiles, id: string) => record(step(files, id).transitions);
const runner = (files: AgentFolderFiles) => record(files.agent.runner);
const parameters = (files: AgentFolderFiles) => record(files.agent.parameters);
const validator = (files: AgentFolderFiles) =>
  record(record(files.registry.validators)["git-clean"]);
const definitions = (files: AgentFolderFiles) =>
  record(record(files.schemas["issue.schema.json"]).definitions);

/** A check-dialect registry for the codes only that dialect can produce. */
function checkRegistry(): JsonRecord {
  return {
    version: "1.0.0",
    entryStep: "s_a1",
    steps: {
      s_a1: {
        id: "s_a1",
        prompt: { c1: "steps", c2: "phase", c3: "work" },
        iterations: { min: 1, max: 3 },
        check: { onPass: { complete: true } },
      },
    },
  };
}

interface Case {
  readonly code: string;
  /** Relative to the agent folder. */
  readonly file: string;
  readonly path: string;
  readonly mutate: (files: AgentFolderFiles) => void;
}

const cases: Case[] = [
  {
    code: "SR-LOAD-001",
    file: "missing_registry.json",
    path: "$",
    mutate: (f) => {
      runner(f).flow = { prompts: { registry: "missing_registry.json" } };
    },
  },
  {
    code: "SR-LOAD-002",
    file: "steps_registry.json",
    path: "$.agentId",
    mutate: (f) => {
      f.registry.agentId = "someone-else";
    },
  },
  {
    code: "SR-LOAD-003",
    file: "schemas",
    path: "$",
    mutate: (f) => {
      runner(f).flow = { prompts: { registry: "schemas" } };
    },
  },
  {
    code: "SR-LOAD-004",
    file: "steps_registry.json",
    path: "$",
    mutate: (f) => {
      f.raw = { "steps_registry.json": '{\n  "steps": {\n    "a": 1,\n  }\n}' };
    },
  },
  {
    code: "SR-LOAD-005",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].c2',
    mutate: (f) => {
      step(f, "initial.issue").c2 = 5;
    },
  },
  {
    code: "SR-LOAD-006",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"]',
    mutate: (f) => {
      step(f, "closure.issue").prompt = { path: "closure.md" };
    },
  },
  {
    code: "SR-LOAD-007",
    file: "steps_registry.json",
    path: "$.userPromptsBase",
    mutate: (f) => {
      f.registry.userPromptsBase = "../../elsewhere/prompts";
    },
  },
  {
    code: "SR-LOAD-008",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].outputSchemaRef.schema',
    mutate: (f) => {
      record(step(f, "initial.issue").outputSchemaRef).schema = "initial.isue";
    },
  },
  {
    code: "SR-LOAD-009",
    file: "schemas/issue.schema.json",
    path: "$.definitions.node.properties.child.$ref",
    mutate: (f) => {
      definitions(f).node = {
        type: "object",
        properties: { child: { $ref: "#/definitions/node" } },
      };
      record(record(definitions(f)["initial.issue"]).properties).analysis = {
        $ref: "#/definitions/node",
      };
    },
  },
  {
    code: "SR-LOAD-010",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].outputSchemaRef',
    mutate: (f) => {
      // Each level refers to the next one twice: 2^24 nodes once inlined, though no cycle.
      for (let level = 0; level < 24; level++) {
        definitions(f)[`level${level}`] = {
          type: "object",
          properties: {
            left: { $ref: `#/definitions/level${level + 1}` },
            right: { $ref: `#/definitions/level${level + 1}` },
          },
        };
      }
      definitions(f).level24 = { type: "string" };
      record(record(definitions(f)["initial.issue"]).properties).analysis = {
        $ref: "#/definitions/level0",
      };
    },
  },
  {
    code: "AC-VALID-001",
    file: "agent.json",
    path: "$.displayName",
    mutate: (f) => {
      f.agent.displayName = 42;
    },
  },
  {
    code: "AC-VALID-002",
    file: "agent.json",
    path: "$.name",
    mutate: (f) => {
      f.agent.name = "demo-agent";
    },
  },
  {
    code: "AC-VALID-003",
    file: "agent.json",
    path: "$",
    mutate: (f) => {
      f.agent.behavior = { completionType: "stepFlow" };
    },
  },
  {
    code: "AC-VALID-004",
    file: "agent.json",
    path: "$.runner.flow.systemPromptPath",
    mutate: (f) => {
      runner(f).flow = { systemPromptPath: "/etc/passwd" };
    },
  },
  {
    code: "AC-VERDICT-001",
    file: "agent.json",
    path: "$.runner.verdict.type",
    mutate: (f) => {
      runner(f).verdict = { type: "whenever" };
    },
  },
  {
    code: "AC-VERDICT-002",
    file: "agent.json",
    path: "$.runner.verdict.config.conditions",
    mutate: (f) => {
      runner(f).verdict = { type: "composite", config: { operator: "and" } };
    },
  },
  {
    code: "AC-VERDICT-003",
    file: "agent.json",
    path: "$.runner.verdict.config.maxIterations",
    mutate: (f) => {
      runner(f).verdict = { type: "count:iteration", config: { maxIterations: 0 } };
    },
  },
  {
    code: "AC-PARAM-001",
    file: "agent.json",
    path: "$.parameters.issue.type",
    mutate: (f) => {
      record(parameters(f).issue).type = "array";
    },
  },
  {
    code: "AC-PARAM-002",
    file: "agent.json",
    path: "$.parameters.issue.default",
    mutate: (f) => {
      record(parameters(f).issue).default = "12";
    },
  },
  {
    code: "AC-PARAM-003",
    file: "agent.json",
    path: "$.parameters.issueNumber.cli",
    mutate: (f) => {
      parameters(f).issueNumber = { type: "number", cli: "--issue" };
    },
  },
  {
    code: "AC-PARAM-004",
    file: "agent.json",
    path: "$.parameters.issue.cli",
    mutate: (f) => {
      record(parameters(f).issue).cli = "issue";
    },
  },
  {
    code: "AC-PARAM-005",
    file: "agent.json",
    path: "$.parameters.ticket.role",
    mutate: (f) => {
      record(parameters(f).issue).role = "issue";
      parameters(f).ticket = { type: "number", role: "issue" };
    },
  },
  {
    code: "AC-PARAM-005",
    file: "agent.json",
    path: "$.parameters.issue.role",
    mutate: (f) => {
      record(parameters(f).issue).role = "pull-request";
    },
  },
  {
    code: "SR-ENTRY-001",
    file: "steps_registry.json",
    path: "$.entryStep",
    mutate: (f) => {
      delete f.registry.entryStep;
    },
  },
  {
    code: "SR-ENTRY-002",
    file: "steps_registry.json",
    path: "$.entryStep",
    mutate: (f) => {
      f.registry.entryStep = "initial.isue";
    },
  },
  {
    code: "SR-ENTRY-003",
    file: "steps_registry.json",
    path: '$.entryStepMapping["poll:state"]',
    mutate: (f) => {
      f.registry.entryStepMapping = { "poll:state": "initial.polling" };
    },
  },
  {
    code: "SR-ENTRY-004",
    file: "steps_registry.json",
    path: "$.entryStepMapping.polling",
    mutate: (f) => {
      f.registry.entryStepMapping = { polling: "initial.issue" };
    },
  },
  {
    code: "SR-INTENT-001",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].structuredGate.allowedIntents[1]',
    mutate: (f) => {
      gate(f, "initial.issue").allowedIntents = ["next", "closing"];
    },
  },
  {
    code: "SR-INTENT-002",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"].structuredGate.allowedIntents[0]',
    mutate: (f) => {
      gate(f, "closure.issue").allowedIntents = ["done", "repeat"];
    },
  },
  {
    code: "SR-INTENT-003",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].structuredGate.intentSchemaRef',
    mutate: (f) => {
      gate(f, "initial.issue").intentSchemaRef =
        "issue.schema.json#/properties/next_action/properties/action";
    },
  },
  {
    code: "SR-INTENT-004",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].structuredGate.intentSchemaRef',
    mutate: (f) => {
      gate(f, "initial.issue").intentSchemaRef = "#/properties/next_action/properties/intent";
    },
  },
  {
    code: "SR-INTENT-005",
    file: "steps_registry.json",
    path: '$.steps["continuation.issue"].structuredGate.allowedIntents',
    mutate: (f) => {
      gate(f, "continuation.issue").allowedIntents = ["next", "repeat"];
      delete transitions(f, "continuation.issue").handoff;
    },
  },
  {
    code: "SR-INTENT-006",
    file: "steps_registry.json",
    path: '$.steps["continuation.issue"].structuredGate.fallbackIntent',
    mutate: (f) => {
      gate(f, "continuation.issue").failFast = false;
      gate(f, "continuation.issue").fallbackIntent = "jump";
    },
  },
  {
    code: "SR-TRANS-001",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].transitions.next.target',
    mutate: (f) => {
      transitions(f, "initial.issue").next = { target: "continuation.isue" };
    },
  },
  {
    code: "SR-TRANS-002",
    file: "steps_registry.json",
    path: '$.steps["continuation.issue"].transitions.handoff.target',
    mutate: (f) => {
      transitions(f, "continuation.issue").handoff = { target: null };
    },
  },
  {
    code: "SR-TRANS-015",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"].transitions.closing.target',
    mutate: (f) => {
      transitions(f, "closure.issue").closing = { target: "initial.issue" };
    },
  },
  {
    code: "SR-TRANS-012",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].transitions.next.targets.ready',
    mutate: (f) => {
      steps(f)["section.context"] = { stepId: "section.context", c2: "section", c3: "context" };
      transitions(f, "initial.issue").next = {
        condition: "status",
        targets: { ready: "section.context", default: "continuation.issue" },
      };
    },
  },
  {
    code: "SR-TRANS-013",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"].transitions.done',
    mutate: (f) => {
      transitions(f, "closure.issue").done = { target: null };
    },
  },
  {
    code: "SR-GATE-001",
    file: "steps_registry.json",
    path: '$.steps["continuation.issue"]',
    mutate: (f) => {
      delete step(f, "continuation.issue").structuredGate;
    },
  },
  {
    code: "SR-GATE-002",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].structuredGate.handoffFields[1]',
    mutate: (f) => {
      gate(f, "initial.issue").handoffFields = ["analysis.plan", "review.plan"];
    },
  },
  {
    code: "SR-GATE-003",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"].transitions',
    mutate: (f) => {
      delete step(f, "closure.issue").transitions;
    },
  },
  {
    code: "SR-GATE-004",
    file: "steps_registry.json",
    path: '$.steps["closure.issue"].outputSchemaRef',
    mutate: (f) => {
      delete step(f, "closure.issue").outputSchemaRef;
    },
  },
  {
    code: "SR-VALID-001",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].stepId',
    mutate: (f) => {
      step(f, "initial.issue").stepId = "initial.issues";
    },
  },
  {
    code: "SR-VALID-002",
    file: "steps_registry.json",
    path: '$.validationSteps["closure.issue"].validationConditions[1].validator',
    mutate: (f) => {
      record(record(f.registry.validationSteps)["closure.issue"]).validationConditions = [
        { validator: "git-clean" },
        { validator: "tests-pass" },
      ];
    },
  },
  {
    code: "SR-VALID-003",
    file: "steps_registry.json",
    path: '$.validators["git-clean"].failurePattern',
    mutate: (f) => {
      validator(f).failurePattern = "git-dirt";
    },
  },
  {
    code: "SR-VALID-004",
    file: "steps_registry.json",
    path: '$.validators["git-clean"].successWhen',
    mutate: (f) => {
      validator(f).successWhen = "nothing";
    },
  },
  {
    code: "SR-VALID-005",
    file: "steps_registry.json",
    path: '$.validators["git-clean"].extractParams.changedFiles',
    mutate: (f) => {
      validator(f).extractParams = { changedFiles: "parseChanges" };
    },
  },
  {
    code: "SR-VALID-006",
    file: "steps_registry.json",
    path: '$.steps["initial.issue"].uvVariables[0]',
    mutate: (f) => {
      step(f, "initial.issue").uvVariables = ["issue_number"];
    },
  },
  {
    code: "SR-VALID-007",
    file: "steps_registry.json",
    path: "$.steps.s_a1.iterations",
    mutate: (f) => {
      f.registry = checkRegistry();
      record(step(f, "s_a1").iterations).min = 5;
    },
  },
];

function findProblem(problems: readonly Problem[], code: string): Problem {
  const found = problems.find((problem) => problem.code === code);
  if (found === undefined) {
    throw new Error(`no ${code} among:\n${problems.map(formatProblem).join("\n")}`);
  }
  return found;
}

afterAll(removeAgentFolders);

describe("load-time error codes", () => {
  it("start from an agent folder that loads cleanly", async () => {
    const result = await loadAgent(await writeAgentFolder(demoAgent()));
    expect(result.ok ? [] : result.issues.map(formatProblem)).toEqual([]);
  });

  it.each(cases)("$code names $file at $path", async ({ code, file, path: jsonPath, mutate }) => {
    const files = demoAgent();
    mutate(files);
    const dir = await writeAgentFolder(files);
    const result = await loadAgent(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = findProblem(result.issues, code);
    expect(problem.file).toBe(path.join(dir, file));
    expect(problem.path).toBe(jsonPath);
    const shown = formatProblem(problem);
    expect(shown).toContain(path.join(dir, file));
    expect(shown).toContain(`at ${jsonPath}`);
    expect(problem.message.length).toBeGreaterThan(10);
    expect(problem.hint?.length ?? 0).toBeGreaterThan(10);
    for (const other of result.issues) {
      expect(other.code).toMatch(/^(SR|AC)-[A-Z]+-\d{3}$/);
    }
  });

  it("SR-LOAD-011 names the TypeScript file when a type cannot be converted", async () => {
    const dir = await writeAgentFolder(demoAgent());
    const file = path.join(dir, "types", "output.ts");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "export interface Output { value: Missing }\n");
    const result = await generateOutputSchema(file, "Output");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = findProblem(result.issues, "SR-LOAD-011");
    expect(problem.file).toBe(file);
    expect(formatProblem(problem)).toContain(file);
    expect(problem.message).toContain("output.ts:1:");
    expect(problem.message).toContain("Missing");
  });
});
