import type { JsonValue, Step } from "@climpt/model";
import { coerceJsonObject } from "./parse-json-output.ts";

/** The verdict of a check-dialect check (docs/design.md#the-check-dialect). */
export interface CheckInterpretation {
  readonly passed: boolean;
  /**
   * The check's own `message` when its `result` was understood; otherwise why the check is
   * treated as failed (missing, unrecognised or unparseable `result`).
   */
  readonly message: string;
  /** False when `result` was missing, unrecognised, or the output was not JSON: a failed check. */
  readonly recognized: boolean;
  /** The `result` value as written, when there was one. */
  readonly result?: JsonValue;
}

const PASS_WORDS = new Set(["ok", "pass", "true"]);
const FAIL_WORDS = new Set(["ng", "fail", "false"]);
const EXPECTED = "ok|pass|true or ng|fail|false";

/**
 * Reads `{result, message}`: `ok|pass|true` (any case, or boolean true) passes, `ng|fail|false`
 * fails; anything else, a missing `result`, or an output that is not JSON fails too, with a
 * message saying why: a check reply that cannot be parsed counts as NG. The output may
 * be an object, a JSON string, or JSON inside a ```json fence.
 */
export function interpretCheck(output: unknown): CheckInterpretation {
  const object = coerceJsonObject(output);
  if (!object.ok) {
    // The problem's sentence, as a clause of this one.
    const why = (object.issues[0]?.message ?? "the output is not JSON.").replace(/\.$/, "");
    return {
      passed: false,
      recognized: false,
      message: `Check treated as failed: ${why.charAt(0).toLowerCase()}${why.slice(1)}. Expected {"result": "ok|ng", "message": "..."}.`,
    };
  }
  const fields = object.value;
  const message = typeof fields.message === "string" ? fields.message : "";
  if (!Object.hasOwn(fields, "result")) {
    return {
      passed: false,
      recognized: false,
      message: `Check treated as failed: the output has no "result" field (expected ${EXPECTED}).${message ? ` Message: ${message}` : ""}`,
    };
  }
  const result = fields.result as JsonValue;
  const word =
    typeof result === "string"
      ? result.trim().toLowerCase()
      : typeof result === "boolean"
        ? String(result)
        : undefined;
  if (word !== undefined && PASS_WORDS.has(word)) {
    return { passed: true, recognized: true, message, result };
  }
  if (word !== undefined && FAIL_WORDS.has(word)) {
    return { passed: false, recognized: true, message, result };
  }
  return {
    passed: false,
    recognized: false,
    result,
    message: `Check treated as failed: "result" is ${JSON.stringify(result)}, expected ${EXPECTED}.${message ? ` Message: ${message}` : ""}`,
  };
}

/**
 * Where a check-dialect step's verdict comes from:
 * - `prompt`: the check has its own prompt, run as a separate model call returning `{result, message}`;
 * - `stepOutput`: no check prompt but a `responseFormat`: the step's own output carries `result`
 *   (the original's `s_impl` step works this way);
 * - `none`: neither, or no check at all: the check passes without a model call.
 */
export type CheckSource = "prompt" | "stepOutput" | "none";

export function checkSource(step: Step): CheckSource {
  const check = step.check;
  if (check === undefined) return "none";
  if (check.prompt !== undefined) return "prompt";
  if (check.responseFormat !== undefined) return "stepOutput";
  return "none";
}

export interface StepCheckOutputs {
  /** The output of the step prompt's execution. */
  readonly stepOutput?: unknown;
  /** The output of the check prompt's model call (only for `checkSource(step) === "prompt"`). */
  readonly checkOutput?: unknown;
}

/** `interpretCheck` on the output `checkSource(step)` names; a check with no source passes. */
export function interpretStepCheck(step: Step, outputs: StepCheckOutputs): CheckInterpretation {
  switch (checkSource(step)) {
    case "prompt":
      return interpretCheck(outputs.checkOutput);
    case "stepOutput":
      return interpretCheck(outputs.stepOutput);
    case "none":
      return {
        passed: true,
        recognized: true,
        message: `Step "${step.id}" declares no check prompt and no responseFormat: passed without a check.`,
      };
  }
}
