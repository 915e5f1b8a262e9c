import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { useTempDirs } from "@climpt/testing";
import { Ajv } from "ajv";
import { afterAll, describe, expect, it } from "vitest";
import { CASE_KEYS, EXPECTATION_KEYS, readSuite, SUITE_KEYS } from "./eval-suite.ts";

const CLI_DIR = path.resolve(import.meta.dirname, "../..");
const SCHEMA_FILE = path.join(CLI_DIR, "eval-suite.schema.json");
const BUNDLED = path.resolve(CLI_DIR, "../../examples/eval/bundled.suite.json");

interface SchemaDocument {
  readonly properties: Record<string, unknown>;
  readonly required: readonly string[];
  readonly definitions: {
    readonly case: { readonly properties: Record<string, unknown>; readonly required: string[] };
    readonly expectations: { readonly properties: Record<string, unknown> };
  };
}

const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as SchemaDocument;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const tempDir = useTempDirs(afterAll, "climpt-eval-schema-");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A suite whose paths exist (the loader checks them; the schema cannot), as an object to change. */
function validSuite(): { dir: string; suite: Record<string, Json> } {
  const dir = tempDir();
  mkdirSync(path.join(dir, "agent"));
  mkdirSync(path.join(dir, "repo"));
  writeFileSync(path.join(dir, "run.jsonl"), "");
  return {
    dir,
    suite: {
      $schema: "eval-suite.schema.json",
      cases: [
        {
          name: "one",
          agent: "agent",
          cassette: "run.jsonl",
          repo: "repo",
          args: { issue: 1 },
          maxIterations: 3,
          expect: {
            success: true,
            finalStep: "closure.done",
            steps: ["initial.work", "closure.done"],
            validatorsPassed: ["tests"],
            errorCode: "AGENT_MAX_ITERATIONS",
            maxCostUsd: 0,
            maxIterations: 2,
          },
        },
        { name: "two", agent: "agent", cassette: "run.jsonl" },
      ],
    },
  };
}

/** Changes of the valid suite, each with what both the schema and the loader must say of it. */
const VARIANTS: readonly {
  readonly what: string;
  readonly valid: boolean;
  readonly change: (suite: Record<string, Json>, first: Record<string, Json>) => void;
}[] = [
  { what: "unchanged", valid: true, change: () => undefined },
  { what: "without $schema", valid: true, change: (s) => delete s.$schema },
  { what: "a case without expect", valid: true, change: (_, c) => delete c.expect },
  { what: "empty expectations", valid: true, change: (_, c) => (c.expect = {}) },
  { what: "empty steps", valid: true, change: (_, c) => (expectOf(c).steps = []) },
  { what: "a fractional cost", valid: true, change: (_, c) => (expectOf(c).maxCostUsd = 0.25) },
  { what: "no cases", valid: false, change: (s) => (s.cases = []) },
  { what: "cases not an array", valid: false, change: (s) => (s.cases = {}) },
  { what: "no cases field", valid: false, change: (s) => delete s.cases },
  { what: "an unknown suite field", valid: false, change: (s) => (s.title = "x") },
  { what: "$schema not a string", valid: false, change: (s) => (s.$schema = 3) },
  { what: "a case not an object", valid: false, change: (s) => ((s.cases as Json[])[1] = "x") },
  { what: "an unknown case field", valid: false, change: (_, c) => (c.cassete = "run.jsonl") },
  { what: "a case without name", valid: false, change: (_, c) => delete c.name },
  { what: "a blank name", valid: false, change: (_, c) => (c.name = "  ") },
  { what: "a case without agent", valid: false, change: (_, c) => delete c.agent },
  { what: "a case without cassette", valid: false, change: (_, c) => delete c.cassette },
  { what: "a numeric repo", valid: false, change: (_, c) => (c.repo = 3) },
  { what: "args not an object", valid: false, change: (_, c) => (c.args = [1]) },
  { what: "maxIterations 0", valid: false, change: (_, c) => (c.maxIterations = 0) },
  { what: "maxIterations 1.5", valid: false, change: (_, c) => (c.maxIterations = 1.5) },
  { what: "expect not an object", valid: false, change: (_, c) => (c.expect = "pass") },
  { what: "an unknown expectation", valid: false, change: (_, c) => (expectOf(c).passes = true) },
  { what: "success a string", valid: false, change: (_, c) => (expectOf(c).success = "yes") },
  { what: "an empty finalStep", valid: false, change: (_, c) => (expectOf(c).finalStep = "") },
  { what: "an empty errorCode", valid: false, change: (_, c) => (expectOf(c).errorCode = "") },
  { what: "a step not a string", valid: false, change: (_, c) => (expectOf(c).steps = [1]) },
  {
    what: "validatorsPassed a string",
    valid: false,
    change: (_, c) => (expectOf(c).validatorsPassed = "tests"),
  },
  { what: "a negative cost", valid: false, change: (_, c) => (expectOf(c).maxCostUsd = -1) },
  { what: "a cost as text", valid: false, change: (_, c) => (expectOf(c).maxCostUsd = "1") },
  {
    what: "expected iterations 0",
    valid: false,
    change: (_, c) => (expectOf(c).maxIterations = 0),
  },
];

function expectOf(entry: Record<string, Json>): Record<string, Json> {
  return entry.expect as Record<string, Json>;
}

describe("eval-suite.schema.json, the published schema of a suite file", () => {
  it("names exactly the fields the loader reads, with the same required ones", () => {
    expect(Object.keys(schema.properties)).toEqual([...SUITE_KEYS]);
    expect(schema.required).toEqual(["cases"]);
    expect(Object.keys(schema.definitions.case.properties).sort()).toEqual([...CASE_KEYS].sort());
    expect(schema.definitions.case.required).toEqual(["name", "agent", "cassette"]);
    expect(Object.keys(schema.definitions.expectations.properties).sort()).toEqual(
      [...EXPECTATION_KEYS].sort(),
    );
  });

  it("accepts and refuses the same suites as the loader", () => {
    const verdicts = VARIANTS.map((variant) => {
      const { dir, suite } = validSuite();
      variant.change(suite, (suite.cases as Record<string, Json>[])[0] as Record<string, Json>);
      const file = path.join(dir, "suite.json");
      writeFileSync(file, JSON.stringify(suite));
      const loaded = readSuite(file);
      return {
        what: variant.what,
        schema: validate(suite),
        loader: loaded.ok,
        codes: loaded.ok ? [] : [...new Set(loaded.problems.map((problem) => problem.code))],
      };
    });
    expect(verdicts).toEqual(
      VARIANTS.map((variant) => ({
        what: variant.what,
        schema: variant.valid,
        loader: variant.valid,
        codes: variant.valid ? [] : ["AC-EVAL-002"],
      })),
    );
  });

  it("is the bundled suite's $schema, which it passes, and ships in the climpt package", () => {
    const bundled = JSON.parse(readFileSync(BUNDLED, "utf8")) as { $schema?: string };
    expect(path.resolve(path.dirname(BUNDLED), bundled.$schema ?? "")).toBe(SCHEMA_FILE);
    expect(validate(bundled), JSON.stringify(validate.errors)).toBe(true);
    expect(readSuite(BUNDLED).ok).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(CLI_DIR, "package.json"), "utf8")) as {
      files: string[];
      exports: Record<string, unknown>;
      publishConfig: { exports: Record<string, unknown> };
    };
    expect(manifest.files).toContain("eval-suite.schema.json");
    expect(manifest.exports["./eval-suite.schema.json"]).toBe("./eval-suite.schema.json");
    expect(manifest.publishConfig.exports["./eval-suite.schema.json"]).toBe(
      "./eval-suite.schema.json",
    );
  });
});
