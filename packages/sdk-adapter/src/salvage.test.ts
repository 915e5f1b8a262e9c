import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { outputCandidates } from "./salvage.ts";
import { compileSchema } from "./schema-validator.ts";
import { INTENT_SCHEMA } from "./sdk-adapter.test-helper.ts";

const wanted = { intent: "next", summary: "did it" };
const schema = compileSchema(INTENT_SCHEMA);

/** What runStep does: the first candidate the schema accepts. */
function firstValid(text: string) {
  return outputCandidates(text).find((candidate) => schema.validate(candidate.value).length === 0);
}

describe("salvaging structured output from near misses", () => {
  it("takes a reply that is valid JSON as it stands, without salvage", () => {
    expect(firstValid(JSON.stringify(wanted))).toEqual({ value: wanted, salvage: [] });
  });

  it("finds JSON in a ```json fence", () => {
    const text = `Here you go:\n\`\`\`json\n${JSON.stringify(wanted, null, 2)}\n\`\`\`\nAnything else?`;
    expect(firstValid(text)).toEqual({ value: wanted, salvage: ["fence"] });
  });

  it("finds JSON after prose, with braces inside its strings", () => {
    const value = { intent: "repeat", summary: "fix the {braces} in a[0]" };
    const text = `I looked at the files. The result is ${JSON.stringify(value)} and that is all.`;
    expect(firstValid(text)).toEqual({ value, salvage: ["prose"] });
  });

  it('unwraps an {"output": …} wrapper', () => {
    expect(firstValid(JSON.stringify({ output: wanted }))).toEqual({
      value: wanted,
      salvage: ["output-wrapper"],
    });
  });

  it("parses stringified JSON, also inside a wrapper", () => {
    expect(firstValid(JSON.stringify(JSON.stringify(wanted)))).toEqual({
      value: wanted,
      salvage: ["stringified"],
    });
    expect(firstValid(JSON.stringify({ output: JSON.stringify(wanted) }))).toEqual({
      value: wanted,
      salvage: ["output-wrapper", "stringified"],
    });
  });

  it("keeps a valid {output: …} object when the schema itself asks for an output field", () => {
    const withOutput = compileSchema({
      type: "object",
      properties: { output: { type: "object" } },
      required: ["output"],
    });
    const text = JSON.stringify({ output: { a: 1 } });
    const chosen = outputCandidates(text).find((c) => withOutput.validate(c.value).length === 0);
    expect(chosen).toEqual({ value: { output: { a: 1 } }, salvage: [] });
  });

  it("finds nothing in prose without JSON", () => {
    expect(outputCandidates("I could not decide what to do.")).toEqual([]);
  });

  it("recovers any object however it is wrapped (property)", () => {
    const objects = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }).filter((key) => key !== "output"),
      fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
      { minKeys: 1, maxKeys: 5 },
    );
    const prose = fc.string({ maxLength: 40 }).map((text) => text.replace(/[{}[\]`"]/g, ""));
    const wrap = fc.constantFrom(
      (json: string) => json,
      (json: string, before: string) => `${before}\n\`\`\`json\n${json}\n\`\`\``,
      (json: string, before: string) => `${before} ${json}`,
      (json: string) => JSON.stringify({ output: JSON.parse(json) }),
      (json: string) => JSON.stringify(json),
    );
    fc.assert(
      fc.property(objects, prose, wrap, (value, before, wrapper) => {
        const candidates = outputCandidates(wrapper(JSON.stringify(value), before));
        expect(candidates.map((candidate) => candidate.value)).toContainEqual(value);
      }),
    );
  });
});

describe("compileSchema", () => {
  it("reports violations as JSON paths a model can act on", () => {
    expect(schema.validate({ intent: "close", extra: 1 })).toEqual(
      expect.arrayContaining([
        '$: missing required property "summary"',
        '$: property "extra" is not allowed',
        '$.intent: must be one of ["next","repeat"]',
      ]),
    );
  });

  it("resolves $defs (2020-12) and definitions (draft-07)", () => {
    const modern = compileSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { items: { type: "array", prefixItems: [{ $ref: "#/$defs/id" }] } },
      $defs: { id: { type: "integer" } },
    });
    expect(modern.validate({ items: [1] })).toEqual([]);
    expect(modern.validate({ items: ["x"] })).toEqual(["$.items[0]: must be integer"]);
    const draft07 = compileSchema({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { handoff: { $ref: "#/definitions/handoff" } },
      definitions: { handoff: { type: "object", required: ["issue"] } },
    });
    expect(draft07.validate({ handoff: {} })).toEqual([
      '$.handoff: missing required property "issue"',
    ]);
  });

  it("throws on a schema that cannot compile", () => {
    expect(() => compileSchema({ $ref: "#/$defs/missing" })).toThrow();
  });
});
