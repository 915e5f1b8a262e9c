import * as path from "node:path";
import type { JsonSchema, JsonValue, Problem } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { collectRefs, inlineOutputSchema, type SchemaDocument } from "./inline-schema-refs.ts";

const root = path.resolve("/agents/demo");
const schemasDir = path.join(root, "schemas");

function inline(
  files: Record<string, JsonValue>,
  schema: string,
  file = "steps.schema.json",
  maxNodes?: number,
): { ok: true; value: JsonSchema } | { ok: false; issues: readonly Problem[] } {
  const documents = new Map<string, SchemaDocument>(
    Object.entries(files).map(([name, value]) => [
      path.join(schemasDir, name),
      { ok: true, value },
    ]),
  );
  return inlineOutputSchema(
    { file, schema },
    {
      documents,
      root,
      schemasDir,
      registryFile: path.join(root, "steps_registry.json"),
      registryPath: '$.steps["initial.a"]',
      stepId: "initial.a",
      ...(maxNodes === undefined ? {} : { maxNodes }),
    },
  );
}

function value(result: ReturnType<typeof inline>): JsonSchema {
  if (!result.ok) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.value;
}

function issues(result: ReturnType<typeof inline>): readonly Problem[] {
  return result.ok ? [] : result.issues;
}

describe("inlineOutputSchema", () => {
  it("looks a bare name up in definitions, then $defs, then the top level", () => {
    const files = {
      "steps.schema.json": {
        definitions: { a: { title: "from definitions" } },
        $defs: { a: { title: "from $defs" }, b: { title: "b from $defs" } },
        a: { title: "top a" },
        b: { title: "top b" },
        c: { title: "top c" },
      },
    };
    expect(value(inline(files, "a"))).toEqual({ title: "from definitions" });
    expect(value(inline(files, "b"))).toEqual({ title: "b from $defs" });
    expect(value(inline(files, "c"))).toEqual({ title: "top c" });
    expect(value(inline(files, "#/$defs/a"))).toEqual({ title: "from $defs" });
  });

  it("decodes JSON pointer escapes in refs and in outputSchemaRef", () => {
    const files = {
      "steps.schema.json": {
        definitions: {
          "a/b": { type: "object", properties: { x: { $ref: "#/definitions/c~0d%20e" } } },
          "c~d e": { type: "string" },
        },
      },
    };
    expect(value(inline(files, "#/definitions/a~1b"))).toEqual({
      type: "object",
      properties: { x: { type: "string" } },
    });
  });

  it("resolves a ref to a whole file and a ref in a subfolder relative to that subfolder", () => {
    const files = {
      "steps.schema.json": {
        step: { type: "object", properties: { shared: { $ref: "shared/common.json" } } },
      },
      "shared/common.json": {
        $id: "common.json",
        type: "object",
        properties: { item: { $ref: "item.json#/$defs/item" } },
      },
      "shared/item.json": { $defs: { item: { type: "integer" } } },
    };
    expect(value(inline(files, "step"))).toEqual({
      type: "object",
      properties: {
        shared: { type: "object", properties: { item: { type: "integer" } } },
      },
    });
  });

  it("does not treat two sibling refs to one definition as a cycle", () => {
    const files = {
      "steps.schema.json": {
        $defs: {
          id: { type: "string" },
          pair: { allOf: [{ $ref: "#/$defs/id" }, { $ref: "#/$defs/id" }] },
        },
        step: {
          type: "object",
          properties: { a: { $ref: "#/$defs/pair" }, b: { $ref: "#/$defs/pair" } },
        },
      },
    };
    const pair = { allOf: [{ type: "string" }, { type: "string" }] };
    expect(value(inline(files, "step"))).toEqual({
      type: "object",
      properties: { a: pair, b: pair },
    });
  });

  it("reports a cycle across files, naming the whole chain", () => {
    const files = {
      "steps.schema.json": { step: { $ref: "other.json#/$defs/a" } },
      "other.json": {
        $defs: {
          a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } },
          b: { type: "array", items: { $ref: "steps.schema.json#/step" } },
        },
      },
    };
    const [problem, ...rest] = issues(inline(files, "step"));
    expect(rest).toEqual([]);
    expect(problem?.code).toBe("SR-LOAD-009");
    expect(problem?.file).toBe(path.join(schemasDir, "other.json"));
    expect(problem?.path).toBe("$.$defs.b.items.$ref");
    expect(problem?.message).toContain(
      "schemas/steps.schema.json#/step → schemas/other.json#/$defs/a → schemas/other.json#/$defs/b → schemas/steps.schema.json#/step",
    );
  });

  it("keeps data that looks like a ref (enum, const, default, examples) as data", () => {
    const files = {
      "steps.schema.json": {
        step: {
          type: "object",
          default: { $ref: "#/nowhere" },
          properties: { kind: { const: { $ref: "x" } }, tag: { enum: [{ $ref: "y" }] } },
        },
      },
    };
    expect(value(inline(files, "step"))).toEqual(files["steps.schema.json"].step);
  });

  it("reports refs it cannot resolve offline or that leave the agent folder", () => {
    const files = {
      "steps.schema.json": {
        step: {
          properties: {
            web: { $ref: "https://example.com/schema.json" },
            anchor: { $ref: "#item" },
            escape: { $ref: "../../../secret.json" },
            missing: { $ref: "nope.json#/a" },
            pointer: { $ref: "#/definitions/absent" },
          },
        },
      },
    };
    expect(
      issues(inline(files, "step")).map((problem) => `${problem.code} ${problem.path}`),
    ).toEqual([
      "SR-LOAD-008 $.step.properties.web.$ref",
      "SR-LOAD-008 $.step.properties.anchor.$ref",
      "SR-LOAD-007 $.step.properties.escape.$ref",
      "SR-LOAD-001 $.step.properties.missing.$ref",
      "SR-LOAD-008 $.step.properties.pointer.$ref",
    ]);
  });

  it("caps the inlined size instead of hanging", () => {
    const defs: Record<string, JsonValue> = { d30: { type: "string" } };
    for (let level = 0; level < 30; level++) {
      defs[`d${level}`] = {
        anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }],
      };
    }
    const files = { "steps.schema.json": { $defs: defs, step: { $ref: "#/$defs/d0" } } };
    const found = issues(inline(files, "step", "steps.schema.json", 5000));
    expect(found.map((problem) => problem.code)).toEqual(["SR-LOAD-010"]);
    expect(found[0]?.file).toBe(path.join(root, "steps_registry.json"));
  });

  it("reports a schema file outside the agent folder and a target that is not a schema", () => {
    expect(issues(inline({}, "step", "../../x.json"))[0]?.code).toBe("SR-LOAD-007");
    expect(issues(inline({ "steps.schema.json": { step: 3 } }, "step"))[0]?.code).toBe(
      "SR-LOAD-008",
    );
  });
});

describe("collectRefs", () => {
  it("finds the refs beside an enum of 300,000 values (it was misread as nested too deeply)", () => {
    const values = Array.from({ length: 300_000 }, (_, index) => `v${index}`);
    const document: JsonValue = {
      $defs: { big: { enum: values }, item: { $ref: "#/$defs/big" } },
      items: [{ $ref: "other.json#/a" }],
    };
    expect(collectRefs(document).sort()).toEqual(["#/$defs/big", "other.json#/a"]);
  });
});
