/**
 * Writes an agent folder (agent.json, steps_registry.json, schema files) into a
 * fresh temporary directory, from a small valid gate-dialect agent that a test mutates.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonRecord = { [key: string]: Json };

export interface AgentFolderFiles {
  agent: JsonRecord;
  registry: JsonRecord;
  /** File name under schemas/ → content. */
  schemas: Record<string, Json>;
  /** Extra files: path relative to the agent folder → raw text. */
  raw?: Record<string, string>;
}

const action = (intents: string[]): JsonRecord => ({
  type: "object",
  required: ["action"],
  properties: { action: { type: "string", enum: intents }, reason: { type: "string" } },
});

/** A valid three-step issue agent named "demo": initial → continuation → closure. */
export function demoAgent(): AgentFolderFiles {
  const gate = (intents: string[], handoffFields: string[] = []): JsonRecord => ({
    allowedIntents: intents,
    intentSchemaRef: "#/properties/next_action/properties/action",
    intentField: "next_action.action",
    handoffFields,
  });
  return {
    agent: {
      name: "demo",
      parameters: { issue: { type: "number", required: true } },
      runner: { verdict: { type: "poll:state" } },
    },
    registry: {
      agentId: "demo",
      version: "1.0.0",
      c1: "steps",
      entryStep: "initial.issue",
      steps: {
        "initial.issue": {
          stepId: "initial.issue",
          c2: "initial",
          c3: "issue",
          uvVariables: ["issue"],
          outputSchemaRef: { file: "issue.schema.json", schema: "initial.issue" },
          structuredGate: gate(["next", "repeat"], ["analysis.plan"]),
          transitions: {
            next: { target: "continuation.issue" },
            repeat: { target: "initial.issue" },
          },
        },
        "continuation.issue": {
          stepId: "continuation.issue",
          c2: "continuation",
          c3: "issue",
          uvVariables: ["issue", "initial_issue_plan"],
          outputSchemaRef: { file: "issue.schema.json", schema: "continuation.issue" },
          structuredGate: gate(["next", "repeat", "handoff"]),
          transitions: {
            next: { target: "continuation.issue" },
            repeat: { target: "continuation.issue" },
            handoff: { target: "closure.issue" },
          },
        },
        "closure.issue": {
          stepId: "closure.issue",
          c2: "closure",
          c3: "issue",
          outputSchemaRef: { file: "issue.schema.json", schema: "closure.issue" },
          structuredGate: gate(["closing", "repeat"]),
          transitions: {
            closing: { target: null },
            repeat: { target: "closure.issue" },
          },
        },
      },
      validators: {
        "git-clean": {
          type: "command",
          command: "git status --porcelain",
          successWhen: "empty",
          failurePattern: "git-dirty",
          extractParams: { changedFiles: "parseChangedFiles" },
        },
      },
      failurePatterns: {
        "git-dirty": {
          description: "Uncommitted changes",
          edition: "failed",
          adaptation: "git-dirty",
        },
      },
      validationSteps: {
        "closure.issue": {
          stepId: "closure.issue",
          c2: "retry",
          c3: "issue",
          validationConditions: [{ validator: "git-clean" }],
          onFailure: { action: "retry", maxAttempts: 3 },
        },
      },
    },
    schemas: {
      "issue.schema.json": {
        $schema: "http://json-schema.org/draft-07/schema#",
        definitions: {
          "initial.issue": {
            type: "object",
            required: ["next_action", "analysis"],
            properties: {
              next_action: action(["next", "repeat"]),
              analysis: { type: "object", properties: { plan: { type: "string" } } },
            },
          },
          "continuation.issue": {
            type: "object",
            required: ["next_action"],
            properties: { next_action: action(["next", "repeat", "handoff"]) },
          },
          "closure.issue": {
            type: "object",
            required: ["next_action"],
            properties: { next_action: action(["closing", "repeat"]) },
          },
        },
      },
    },
  };
}

/** What can be written: any JSON, so property tests can write broken files too. */
export interface WritableAgentFolder {
  agent: Json;
  registry: Json;
  schemas: Record<string, Json>;
  raw?: Record<string, string>;
}

const created: string[] = [];

/** Removes every folder `writeAgentFolder` created (call from `afterAll`). */
export async function removeAgentFolders(): Promise<void> {
  const folders = created.splice(0);
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
}

/** Writes the files into `<fresh temp dir>/<name>` and returns that folder. */
export async function writeAgentFolder(files: WritableAgentFolder, name = "demo"): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), "climpt-registry-"));
  created.push(parent);
  const dir = path.join(parent, name);
  await mkdir(path.join(dir, "schemas"), { recursive: true });
  await writeFile(path.join(dir, "agent.json"), JSON.stringify(files.agent, null, 2));
  await writeFile(path.join(dir, "steps_registry.json"), JSON.stringify(files.registry, null, 2));
  for (const [file, content] of Object.entries(files.schemas)) {
    await writeFile(path.join(dir, "schemas", file), JSON.stringify(content, null, 2));
  }
  for (const [file, content] of Object.entries(files.raw ?? {})) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}
