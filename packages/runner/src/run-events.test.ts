import { createScrubber } from "@climpt/model";
import { describe, expect, it } from "vitest";
import { RunTelemetry } from "./run/telemetry.ts";
import type { RunEvent } from "./run-event.ts";
import { RunEventStream } from "./run-events.ts";

const request = {
  type: "model_request",
  iteration: 1,
  stepId: "work",
  phase: "step",
  call: 1,
  model: "claude-haiku-4-5",
  repair: false,
} as const;

describe("RunEventStream without a journal", () => {
  it("numbers and notes every event even while nobody reads them, and a later listener sees the numbering go on", () => {
    const listeners = new Set<(event: RunEvent) => void>();
    const stream = new RunEventStream("run-1", null, new RunTelemetry(), listeners, 4);
    expect(stream.observed).toBe(false);
    stream.emit(request);
    stream.emit({ type: "boundary_hook_start", iteration: 1, stepId: "work" } as never);
    expect(stream.workStarted).toBe(true);
    expect(stream.boundaryHookStarted).toBe(true);

    const seen: RunEvent[] = [];
    listeners.add((event) => seen.push(event));
    expect(stream.observed).toBe(true);
    stream.emit({ ...request, call: 2 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ...request, call: 2, runId: "run-1", seq: 7 });
    expect(typeof seen[0]?.time).toBe("string");
  });

  it("builds an event given by emitBuilt only for a reader, and numbers it either way", () => {
    const listeners = new Set<(event: RunEvent) => void>();
    const stream = new RunEventStream("run-1", null, new RunTelemetry(), listeners);
    let built = 0;
    const build = () => {
      built += 1;
      return request;
    };
    stream.emitBuilt("model_request", build);
    expect(built).toBe(0);
    expect(stream.workStarted).toBe(true);
    const seen: RunEvent[] = [];
    listeners.add((event) => seen.push(event));
    stream.emitBuilt("model_request", build);
    expect(built).toBe(1);
    expect(seen[0]).toMatchObject({ ...request, seq: 2 });
  });

  it("keeps the boundary hook's report scrubbed for the result when nobody reads the events", () => {
    const scrubber = createScrubber([{ label: "GH_TOKEN", value: "ghp_secretvalue123" }]);
    const stream = new RunEventStream("run-1", null, new RunTelemetry(), new Set(), 0, scrubber);
    stream.emit({
      type: "boundary_hook",
      ok: true,
      actions: ["closed with ghp_secretvalue123"],
      problems: [],
    } as never);
    expect(stream.boundaryReport).toEqual({
      ok: true,
      actions: ["closed with [REDACTED GH_TOKEN]"],
      problems: [],
    });
  });
});
