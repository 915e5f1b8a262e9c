import { describe, expect, it } from "vitest";
import {
  gateStep,
  registryOf,
  sectionStep,
  validationStep,
  validator,
} from "./flow-registries.test-helper.ts";
import { reachableSteps } from "./reachable-steps.ts";

describe("reachableSteps", () => {
  const registry = registryOf(
    [
      gateStep("initial.issue", { intents: ["next"], transitions: { next: "closure.issue" } }),
      gateStep("initial.project", {
        intents: ["next"],
        transitions: { next: "continuation.project" },
      }),
      gateStep("continuation.project", {
        intents: ["handoff"],
        transitions: { handoff: "closure.issue" },
      }),
      gateStep("closure.issue", { intents: ["closing"], transitions: { closing: null } }),
      sectionStep("section.notes"),
    ],
    { entryStepMapping: { "poll:state": "initial.issue", "count:iteration": "initial.project" } },
  );

  it("follows the edges from the run's entry only", () => {
    expect([...reachableSteps(registry, ["initial.issue"])]).toEqual([
      "initial.issue",
      "closure.issue",
    ]);
    expect([...reachableSteps(registry, ["initial.project"])].sort()).toEqual([
      "closure.issue",
      "continuation.project",
      "initial.project",
    ]);
  });

  it("does not take a validation retry for a way in: it returns to the step that led there", () => {
    const validated = registryOf(
      [
        gateStep("initial.issue", {
          intents: ["handoff"],
          transitions: { handoff: "closure.issue" },
        }),
        gateStep("initial.other", {
          intents: ["handoff"],
          transitions: { handoff: "closure.issue" },
        }),
        gateStep("closure.issue", { intents: ["closing"], transitions: { closing: null } }),
      ],
      {
        validators: [validator("tests", "npm test", "tests-failed")],
        validationSteps: [validationStep("closure.issue", ["tests"])],
      },
    );
    expect([...reachableSteps(validated, ["initial.issue"])]).toEqual([
      "initial.issue",
      "closure.issue",
    ]);
  });

  it("never counts a section step or an entry that names no flow step", () => {
    expect([...reachableSteps(registry, ["section.notes", "initial.nowhere"])]).toEqual([]);
  });

  it("counts every flow step once a reachable step jumps to a target chosen at run time", () => {
    const jumping = registryOf([
      gateStep("initial.triage", { intents: ["jump"], targetField: "next_action.target" }),
      gateStep("continuation.fix", {
        intents: ["handoff"],
        transitions: { handoff: "closure.done" },
      }),
      gateStep("closure.done", { intents: ["closing"], transitions: { closing: null } }),
    ]);
    expect(reachableSteps(jumping, ["initial.triage"]).size).toBe(3);
    expect([...reachableSteps(jumping, ["continuation.fix"])]).toEqual([
      "continuation.fix",
      "closure.done",
    ]);
  });
});
