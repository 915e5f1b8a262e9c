import type { ShellWord } from "./shell-parse.ts";
import type { Budget } from "./work-budget.ts";

/**
 * The arguments after a word, without copying them: each check reads only as far as it needs,
 * and pays for what it reads.
 */
export class ArgView {
  constructor(
    private readonly words: readonly ShellWord[],
    private readonly start: number,
    private readonly budget: Budget,
  ) {}

  get length(): number {
    return Math.max(0, this.words.length - this.start);
  }

  at(index: number): ShellWord | undefined {
    this.budget.spend(1);
    return this.words[this.start + index];
  }

  from(index: number): ArgView {
    return new ArgView(this.words, this.start + index, this.budget);
  }

  toArray(): ShellWord[] {
    this.budget.spend(this.length);
    return this.words.slice(this.start);
  }

  /** Other words, paid for from the same budget. */
  sibling(words: readonly ShellWord[]): ArgView {
    return new ArgView(words, 0, this.budget);
  }
}
