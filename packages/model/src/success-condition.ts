import { fail, ok, type Problem, type Result } from "./problem.ts";
import type { SuccessCondition } from "./validation-model.ts";

/**
 * Parses a validator's `successWhen`: `empty`, `exitCode:N`, `contains:S`, `matches:RE`.
 * `contains` and `matches` keep everything after the first colon, so the text may hold colons.
 */
export function parseSuccessCondition(
  text: string,
  where: { file?: string; path?: string } = {},
): Result<SuccessCondition> {
  const problem = (message: string, hint: string): Problem => ({
    code: "SR-VALID-004",
    severity: "error",
    message,
    hint,
    ...where,
  });
  if (text === "empty") return ok({ kind: "empty" });
  const colon = text.indexOf(":");
  const head = colon === -1 ? text : text.slice(0, colon);
  const rest = colon === -1 ? "" : text.slice(colon + 1);
  switch (head) {
    case "exitCode": {
      if (!/^\d{1,3}$/.test(rest) || Number(rest) > 255) {
        return fail([
          problem(
            `successWhen "${text}" needs an exit code from 0 to 255 after "exitCode:".`,
            'Write e.g. "exitCode:0".',
          ),
        ]);
      }
      return ok({ kind: "exitCode", code: Number(rest) });
    }
    case "contains":
      if (rest === "") {
        return fail([
          problem(
            `successWhen "${text}" has no text after "contains:".`,
            'Write e.g. "contains:All tests passed".',
          ),
        ]);
      }
      return ok({ kind: "contains", text: rest });
    case "matches":
      try {
        new RegExp(rest);
      } catch (error) {
        return fail([
          problem(
            `successWhen "${text}" is not a valid regular expression: ${(error as Error).message}.`,
            'Write a JavaScript regular expression after "matches:", e.g. "matches:^ok$".',
          ),
        ]);
      }
      return ok({ kind: "matches", pattern: rest });
    default:
      return fail([
        problem(
          `successWhen "${text}" is not one of empty, exitCode:N, contains:S, matches:RE.`,
          'Use "empty" for commands that must print nothing, or "exitCode:0".',
        ),
      ]);
  }
}
