import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ValidationSummary } from "../validation/validation-summary.ts";
import { type CompositeOperator, CompositeVerdict } from "./composite.ts";
import type { DecideContext, VerdictStrategy } from "./types.ts";

const PASSED: ValidationSummary = { results: [], allPassed: true, passed: true, skipped: false };
const CTX: DecideContext = {
  closureStepId: "closure.x",
  closing: true,
  closureOutput: null,
  closureText: "",
  validation: PASSED,
  boundaryRequests: [],
  iteration: 1,
};

/** A child with a fixed answer that records whether it was asked. */
function child(done: boolean, index: number, asked: number[]): VerdictStrategy {
  return {
    type: `child-${index}`,
    observe() {},
    afterIteration: async () => (done ? { enterClosure: true, reason: `c${index}` } : undefined),
    decide: async () => {
      asked.push(index);
      return done
        ? { done, reason: `c${index} done` }
        : { done, reason: `c${index} open`, retryHint: `hint ${index}` };
    },
    uvVariables: () => ({}),
  };
}

describe("composite operators (property)", () => {
  it("and = every, or = some, first = some with the first done child deciding", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        fc.constantFrom<CompositeOperator>("and", "or", "first"),
        async (answers, operator) => {
          const asked: number[] = [];
          const verdict = new CompositeVerdict(
            operator,
            answers.map((done, index) => child(done, index, asked)),
          );
          const decision = await verdict.decide(CTX);
          const firstDone = answers.indexOf(true);
          const expected = operator === "and" ? answers.every(Boolean) : firstDone !== -1;
          expect(decision.done).toBe(expected);
          if (operator === "first") {
            expect(asked).toEqual(
              answers
                .map((_, index) => index)
                .slice(0, firstDone === -1 ? answers.length : firstDone + 1),
            );
            if (firstDone !== -1)
              expect(decision.reason).toBe(`[${firstDone} child-${firstDone}] c${firstDone} done`);
          } else {
            expect(asked).toEqual(answers.map((_, index) => index));
          }
          if (!decision.done) {
            const hints = answers.flatMap((done, index) =>
              done || !asked.includes(index) ? [] : [`hint ${index}`],
            );
            expect(decision.retryHint).toBe(hints.join("\n"));
          }
          const enter = await verdict.afterIteration({
            iteration: 1,
            stepId: "s",
            stepKind: "work",
          });
          expect(enter?.enterClosure === true).toBe(expected);
        },
      ),
    );
  });
});
