import { ClimptError } from "@climpt/model";
import { describe, expect, it } from "vitest";
import * as errors from "./errors.ts";
import {
  CassetteError,
  ModelAuthError,
  ModelError,
  ModelRateLimitError,
  SDK_ADAPTER_CODES,
  StepError,
} from "./errors.ts";

const progress = {
  usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  costUsd: 0,
  calls: 0,
  transcript: [],
};

describe("error classes", () => {
  it("each exported error class has its own isInstance", () => {
    const classes = Object.entries(errors).filter(
      (entry): entry is [string, typeof ClimptError] =>
        typeof entry[1] === "function" && entry[1].prototype instanceof ClimptError,
    );
    expect(classes.map(([name]) => name).sort()).toEqual([
      "CassetteError",
      "ModelAbortedError",
      "ModelAuthError",
      "ModelBadRequestError",
      "ModelConnectionError",
      "ModelError",
      "ModelOverloadedError",
      "ModelRateLimitError",
      "ModelResponseError",
      "ModelServerError",
      "ModelTimeoutError",
      "StepError",
    ]);
    for (const [name, errorClass] of classes) {
      expect(Object.hasOwn(errorClass, "isInstance"), name).toBe(true);
    }
  });

  it("a subclass check takes subclasses, never siblings", () => {
    const auth = new ModelAuthError({ message: "no key" });
    const step = new StepError({ reason: "refusal", message: "refused", step: progress });
    expect(ModelError.isInstance(auth)).toBe(true);
    expect(ClimptError.isInstance(auth)).toBe(true);
    expect(ModelRateLimitError.isInstance(auth)).toBe(false);
    expect(StepError.isInstance(auth)).toBe(false);
    expect(ModelError.isInstance(step)).toBe(false);
    expect(CassetteError.isInstance(step)).toBe(false);
    expect(StepError.isInstance(step)).toBe(true);
    expect(step.code).toBe(SDK_ADAPTER_CODES.refusal);
  });
});
