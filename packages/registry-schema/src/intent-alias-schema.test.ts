import type { StructuredGate } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { acceptedOutputSchema } from "./intent-alias-schema.ts";

const gate = (allowedIntents: StructuredGate["allowedIntents"], ref: string): StructuredGate => ({
  allowedIntents,
  intentSchemaRef: ref,
  intentField: "intent",
  handoffFields: [],
  failFast: true,
});

describe("acceptedOutputSchema", () => {
  it("turns a const intent into an enum with the aliases, leaving the original untouched", () => {
    const schema = { type: "object", properties: { intent: { const: "closing" } } };
    const accepted = acceptedOutputSchema(schema, gate(["closing"], "#/properties/intent"));
    expect(accepted).toEqual({
      type: "object",
      properties: { intent: { enum: ["closing", "done", "finished"] } },
    });
    expect(schema.properties.intent).toEqual({ const: "closing" });
  });

  it("reaches an enum inside an array of schemas", () => {
    const schema = { anyOf: [{ type: "string", enum: ["next"] }] };
    expect(acceptedOutputSchema(schema, gate(["next"], "#/anyOf/0"))).toEqual({
      anyOf: [{ type: "string", enum: ["next", "continue", "pass"] }],
    });
  });

  it("changes nothing when every alias is listed, or the pointer finds no enum", () => {
    const full = { enum: ["escalate", "abort"] };
    expect(acceptedOutputSchema(full, gate(["escalate", "abort"], "#/"))).toBeUndefined();
    expect(acceptedOutputSchema({ type: "string" }, gate(["next"], "#/"))).toBeUndefined();
    expect(acceptedOutputSchema({ enum: ["next"] }, undefined)).toBeUndefined();
  });
});
