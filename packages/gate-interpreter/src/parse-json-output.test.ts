import { describe, expect, it } from "vitest";
import { coerceJsonObject } from "./parse-json-output.ts";

describe("coerceJsonObject", () => {
  it("takes an object, a JSON string, a twice-stringified object and a ```json fence", () => {
    const value = { result: "ok" };
    expect(coerceJsonObject(value)).toEqual({ ok: true, value });
    expect(coerceJsonObject('{"result":"ok"}')).toEqual({ ok: true, value });
    expect(coerceJsonObject(JSON.stringify('{"result":"ok"}'))).toEqual({ ok: true, value });
    expect(coerceJsonObject('Done.\n```json\n{"result":"ok"}\n```')).toEqual({ ok: true, value });
  });

  it("answers anything else with one coded problem saying why", () => {
    for (const [output, why] of [
      [null, "The output is null, not a JSON object."],
      [[1], "The output is an array, not a JSON object."],
      ["  ", "The output is empty."],
      [
        "ok then",
        'The output is not JSON and has no ```json fence holding a JSON object: "ok then".',
      ],
    ] as const) {
      const result = coerceJsonObject(output);
      expect(result).toEqual({
        ok: false,
        issues: [expect.objectContaining({ code: "SR-GATE-007", severity: "error", message: why })],
      });
    }
  });
});
