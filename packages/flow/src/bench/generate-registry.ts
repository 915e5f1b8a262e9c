/**
 * Synthetic gate-dialect registries of any size, for the flow-analysis benchmark and the
 * large-graph tests. Test-only: not exported from the package. Deterministic for a given
 * (size, shape, seed), so timings and findings are comparable between runs.
 */

import type { GateIntent, Registry, Step } from "@climpt/model";
import {
  conditional,
  gateStep,
  registryOf,
  type TransitionSpec,
  validationStep,
  validator,
} from "../flow-registries.test-helper.ts";

/**
 * - `linear`: initial → continuation.1 → … → closure; each step repeats itself and reads the
 *   previous step's handoff.
 * - `branching`: each work step routes `next` on its own `status` (ready → i+1, blocked → i+2,
 *   default → i+1), jumps back three steps and hands off to the closure every tenth step; every
 *   fifth step is a verification step that repeats into the step before it.
 * - `random`: each work step's `next` is a conditional over 1–3 random steps (seeded), `repeat`
 *   goes to a random earlier step, every step reads a random other step's handoff.
 * All shapes end in `closure.end`, validated by `{git-clean, tests}` with up to 3 attempts.
 */
export type RegistryShape = "linear" | "branching" | "random";

export const REGISTRY_SHAPES: readonly RegistryShape[] = ["linear", "branching", "random"];

const CLOSURE = "closure.end";

/** A small seeded PRNG (mulberry32): the same seed gives the same registry everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The id of the index-th work step; `branching` makes every fifth step a verification step. */
function workId(index: number, shape: RegistryShape): string {
  if (index === 0) return "initial.work";
  if (shape === "branching" && index % 5 === 4) return `verification.work${index}`;
  return `continuation.work${index}`;
}

/** `uv-<step>_<key>` without the prefix, as a uvVariables entry. */
function readOf(stepId: string, key: string): string {
  return `${stepId.replaceAll(".", "_")}_${key}`;
}

/** A registry of `size` flow steps (at least 2: one work step and the closure). */
export function generateRegistry(size: number, shape: RegistryShape, seed = 1): Registry {
  if (!Number.isInteger(size) || size < 2)
    throw new RangeError(`size must be an integer ≥ 2, got ${size}`);
  const workCount = size - 1;
  const idOf = (index: number): string => (index >= workCount ? CLOSURE : workId(index, shape));
  const next = random(seed);
  const pick = (below: number): number => Math.floor(next() * below);
  const steps: Step[] = [];

  for (let index = 0; index < workCount; index++) {
    const id = idOf(index);
    const previous = index === 0 ? [] : [readOf(idOf(index - 1), "out")];
    if (shape === "linear") {
      steps.push(
        gateStep(id, {
          intents: index === workCount - 1 ? ["repeat", "handoff"] : ["next", "repeat"],
          transitions:
            index === workCount - 1
              ? { repeat: id, handoff: CLOSURE }
              : { next: idOf(index + 1), repeat: id },
          handoff: ["out"],
          uvVariables: previous,
        }),
      );
      continue;
    }
    if (shape === "branching") {
      if (index % 5 === 4) {
        steps.push(
          gateStep(id, {
            intents: ["next", "repeat"],
            transitions: { next: idOf(index + 1), repeat: idOf(index - 1) },
            handoff: ["out", "status"],
          }),
        );
        continue;
      }
      const transitions: Partial<Record<GateIntent, TransitionSpec>> = {
        next: conditional("status", {
          ready: idOf(index + 1),
          blocked: idOf(index + 2),
          default: idOf(index + 1),
        }),
        repeat: id,
        jump: idOf(Math.max(0, index - 3)),
      };
      const intents: GateIntent[] = ["next", "repeat", "jump"];
      if (index % 10 === 9 || index === workCount - 1) {
        transitions.handoff = CLOSURE;
        intents.push("handoff");
      }
      steps.push(
        gateStep(id, { intents, transitions, handoff: ["out", "status"], uvVariables: previous }),
      );
      continue;
    }
    const targets: Record<string, string> = {};
    const fanOut = 1 + pick(3);
    for (let choice = 0; choice < fanOut; choice++) {
      targets[choice === fanOut - 1 ? "default" : `v${choice}`] = idOf(pick(workCount + 1));
    }
    const transitions: Partial<Record<GateIntent, TransitionSpec>> = {
      next: conditional("status", targets),
      repeat: idOf(pick(index + 1)),
    };
    const intents: GateIntent[] = ["next", "repeat"];
    if (pick(20) === 0 || index === workCount - 1) {
      transitions.handoff = CLOSURE;
      intents.push("handoff");
    }
    steps.push(
      gateStep(id, {
        intents,
        transitions,
        handoff: ["out", "status"],
        uvVariables: [readOf(idOf(pick(workCount)), "out")],
      }),
    );
  }

  return registryOf([...steps, closureStep()], registryExtras());
}

function closureStep(): Step {
  return gateStep(CLOSURE, {
    intents: ["closing", "repeat"],
    transitions: { closing: null, repeat: CLOSURE },
  });
}

function registryExtras() {
  return {
    entryStepMapping: { "poll:state": "initial.work" },
    validators: [
      validator("git-clean", "git status --porcelain", "git-dirty"),
      validator("tests", "npm test", "test-failed"),
    ],
    validationSteps: [validationStep(CLOSURE, ["git-clean", "tests"])],
  };
}
