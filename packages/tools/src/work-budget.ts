/**
 * Units of work the inspection may spend per character of the command (plus a fixed allowance):
 * a command that would need more (deeply nested shells re-read many times, thousands of gh/git
 * words each followed by a long push) is refused as too complex, so the time spent stays linear
 * in the command's length whatever its shape.
 */
export const WORK_PER_CHAR = 32;
export const WORK_ALLOWANCE = 1_000_000;
/** What starting to read a piece of source costs, beyond its length. */
export const PARSE_COST = 64;

export class TooComplex extends Error {}

/** The inspection's work budget; every loop over input spends from it. */
export class Budget {
  private remaining: number;

  constructor(units: number) {
    this.remaining = units;
  }

  spend(units: number): void {
    this.remaining -= units;
    if (this.remaining < 0) throw new TooComplex();
  }
}
