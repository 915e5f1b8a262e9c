import type { Toolbox } from "@climpt/tools";
import type { InterpretedStep } from "./step-end.ts";

/** A step's execution as its dialect interpreted it, with what completion still needs. */
export interface FinishedStep {
  readonly interpreted: InterpretedStep;
  /** The final reply's text (a closure step's text goes to the verdict). */
  readonly text: string;
  /**
   * The boundary actions the step recorded (its tools', or a program step's gh calls'), for the
   * verdict and the hook: the step's toolbox, or for a program step its sandbox's record.
   */
  readonly toolbox: Pick<Toolbox, "boundaryRequests"> | undefined;
  /**
   * The closure step carries no intent (no gate, or a program): the verdict alone decides, it is
   * not told the step said `closing`.
   */
  readonly withoutIntent?: boolean;
}
