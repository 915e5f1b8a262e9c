import { describe, expect, it } from "vitest";
import { parseSuccessCondition } from "./success-condition.ts";

describe("parseSuccessCondition", () => {
  it.each([
    ["empty", { kind: "empty" }],
    ["exitCode:0", { kind: "exitCode", code: 0 }],
    ["exitCode:2", { kind: "exitCode", code: 2 }],
    ["contains:All tests passed", { kind: "contains", text: "All tests passed" }],
    ["contains:a:b", { kind: "contains", text: "a:b" }],
    ["matches:^ok$", { kind: "matches", pattern: "^ok$" }],
  ])("reads %s", (text, expected) => {
    expect(parseSuccessCondition(text)).toEqual({ ok: true, value: expected });
  });

  it.each(["exitCode:", "exitCode:x", "exitCode:256", "contains:", "matches:(", "nonempty", ""])(
    "rejects %j with SR-VALID-004 naming where it is",
    (text) => {
      const result = parseSuccessCondition(text, {
        file: "steps_registry.json",
        path: "$.validators.x.successWhen",
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.issues[0]).toMatchObject({
        code: "SR-VALID-004",
        file: "steps_registry.json",
        path: "$.validators.x.successWhen",
      });
      expect(result.issues[0]?.message).toContain(JSON.stringify(text).slice(1, -1));
    },
  );
});
