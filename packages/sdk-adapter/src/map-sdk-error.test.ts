import { InternalServerError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { ModelServerError } from "./errors.ts";
import { type ErrorContext, mapSdkError } from "./map-sdk-error.ts";

function context(baseURL: string): ErrorContext {
  return {
    model: "claude-haiku-4-5",
    baseURL,
    timeoutMs: 60_000,
    idleTimeoutMs: 180_000,
    maxRetries: 2,
    idleTimedOut: false,
    callerAborted: false,
    streamStarted: false,
    attempts: 1,
  };
}

/** A 500 as the SDK builds it from a response. */
const serverError = new InternalServerError(
  500,
  { type: "error", error: { type: "api_error", message: "Internal server error" } },
  "Internal server error",
  new Headers({ "request-id": "req_1" }),
);

describe("mapSdkError: a server error", () => {
  it("from Anthropic's API is on the API's side", () => {
    const error = mapSdkError(serverError, context("https://api.anthropic.com"));
    expect(error).toBeInstanceOf(ModelServerError);
    expect(error.message).toMatch(/^The Anthropic API failed/);
    expect(error.hint).toBe("This is on the API's side; run again later.");
  });

  it("from another ANTHROPIC_BASE_URL names that server and its log", () => {
    const error = mapSdkError(serverError, context("http://127.0.0.1:8080"));
    expect(error.message).toMatch(
      /^The model server at http:\/\/127\.0\.0\.1:8080 \(ANTHROPIC_BASE_URL\) failed/,
    );
    expect(error.hint).toContain("is not Anthropic's API: its own log says why it failed");
  });
});
