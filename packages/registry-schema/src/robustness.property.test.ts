/**
 * Property: whatever a definition file holds (the seeds' examples with fields dropped, replaced,
 * retyped or renamed, or arbitrary JSON), normalizing and loading never throw and never hang.
 * They return either a plain-JSON model or coded problems, each with a code and a message.
 */

import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import * as path from "node:path";
import type { Problem, Result } from "@climpt/model";
import { demoAgent, type Json, writeAgentFolder } from "@climpt/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadAgent } from "./load-agent.ts";
import { normalizeAgent } from "./normalize-agent.ts";
import { normalizeRegistry } from "./normalize-registry.ts";

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as Json;

const registries: Json[] = [
  fixture("seed-000/code-improver/steps_registry.json"),
  fixture("seed-002/handoff-flow/steps_registry.json"),
  fixture("seed-003/issue-agent/steps_registry.json"),
  fixture("seed-003/project-agent/steps_registry.json"),
  demoAgent().registry,
];
const agents: Json[] = [
  fixture("seed-000/code-improver/agent.json"),
  fixture("seed-003/issue-agent/agent.json"),
  fixture("seed-003/iterator/agent.json"),
  demoAgent().agent,
];

type Segment = string | number;

function allPaths(value: Json, prefix: Segment[] = [], out: Segment[][] = []): Segment[][] {
  out.push(prefix);
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      allPaths(item, [...prefix, index], out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) allPaths(item, [...prefix, key], out);
  }
  return out;
}

function retype(value: Json): Json {
  if (typeof value === "string") return value.length;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : 0;
  if (value === null) return {};
  if (Array.isArray(value))
    return Object.fromEntries(value.map((item, index) => [String(index), item]));
  return Object.values(value);
}

interface Mutation {
  readonly at: number;
  readonly kind: "delete" | "replace" | "retype" | "rename";
  readonly value: Json;
  readonly name: string;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("delete", "replace", "retype", "rename"),
  value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  name: fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("stepId", "$ref", "__proto__", "target", "next"),
  ),
});

/** The document with one mutation applied at one of its paths (the root included). */
function mutate(document: Json, change: Mutation): Json {
  const copy = structuredClone(document);
  const paths = allPaths(copy);
  const target = paths[change.at % paths.length] ?? [];
  if (target.length === 0) {
    return change.kind === "retype"
      ? retype(copy)
      : change.kind === "replace"
        ? change.value
        : copy;
  }
  let parent: Json = copy;
  for (const segment of target.slice(0, -1)) {
    parent = (parent as Record<string, Json>)[segment as string] as Json;
  }
  const last = target[target.length - 1] as Segment;
  const container = parent as Record<string, Json> & Json[];
  switch (change.kind) {
    case "delete":
      if (Array.isArray(container)) container.splice(last as number, 1);
      else delete container[last as string];
      break;
    case "replace":
      container[last as string] = change.value;
      break;
    case "retype":
      container[last as string] = retype(container[last as string] as Json);
      break;
    case "rename":
      if (!Array.isArray(container)) {
        const moved = container[last as string] as Json;
        delete container[last as string];
        Object.defineProperty(container, change.name, {
          value: moved,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      break;
  }
  return copy;
}

function mutated(documents: Json[]): fc.Arbitrary<Json> {
  return fc
    .tuple(fc.constantFrom(...documents), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([document, changes]) => changes.reduce(mutate, document));
}

function expectModelOrCodedProblems<T>(result: Result<T>): void {
  if (result.ok) {
    // The model is plain JSON data.
    expect(JSON.parse(JSON.stringify(result.value))).toEqual(result.value);
    return;
  }
  const issues = result.issues as readonly Problem[];
  // A failure has at least one error; warnings (unreachable steps, …) may come with it.
  expect(issues.some((problem) => problem.severity === "error")).toBe(true);
  for (const problem of issues) {
    expect(problem.code).toMatch(/^(SR|AC)-[A-Z]+-\d{3}$/);
    expect(problem.message.length).toBeGreaterThan(0);
    expect(["error", "warning"]).toContain(problem.severity);
  }
}

describe("robustness", () => {
  it("normalizeRegistry never throws on mutated registries or random JSON", () => {
    fc.assert(
      fc.property(fc.oneof(mutated(registries), fc.jsonValue() as fc.Arbitrary<Json>), (raw) => {
        expectModelOrCodedProblems(normalizeRegistry(raw, { file: "steps_registry.json" }));
      }),
      { numRuns: 400 },
    );
  });

  it("normalizeAgent never throws on mutated agent files or random JSON", () => {
    fc.assert(
      fc.property(fc.oneof(mutated(agents), fc.jsonValue() as fc.Arbitrary<Json>), (raw) => {
        expectModelOrCodedProblems(normalizeAgent(raw, { file: "agent.json", folderName: "demo" }));
      }),
      { numRuns: 400 },
    );
  });

  it("loadAgent never throws on a folder of mutated files", async () => {
    const base = demoAgent();
    await fc.assert(
      fc.asyncProperty(
        mutated([base.agent]),
        mutated([base.registry]),
        mutated([base.schemas["issue.schema.json"] as Json]),
        async (agent, registry, schema) => {
          const dir = await writeAgentFolder({
            agent,
            registry,
            schemas: { "issue.schema.json": schema },
          });
          try {
            expectModelOrCodedProblems(await loadAgent(dir));
          } finally {
            await rm(path.dirname(dir), { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
