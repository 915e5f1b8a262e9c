import type { ShellWord } from "./shell-parse.ts";
import type { Budget } from "./work-budget.ts";

/**
 * Whether a glob (`*`, `?`, `[…]`, `\x`) matches `text`, by dynamic programming over both:
 * time proportional to their lengths multiplied, whatever the pattern (a backtracking regular
 * expression built from `*a*a*a…` would not be).
 */
export function globMatchesLiteral(pattern: string, text: string): boolean {
  type Token = { kind: "star" } | { kind: "one"; test: (c: string) => boolean };
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") {
      tokens.push({ kind: "one", test: (x) => x !== "/" });
    } else if (c === "[" && pattern.indexOf("]", i + 2) > 0) {
      const end = pattern.indexOf("]", i + 2);
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      const inClass = (x: string): boolean => {
        for (let k = 0; k < body.length; k++) {
          if (body.charAt(k + 1) === "-" && k + 2 < body.length) {
            if (x >= body.charAt(k) && x <= body.charAt(k + 2)) return true;
            k += 2;
          } else if (body.charAt(k) === x) {
            return true;
          }
        }
        return false;
      };
      tokens.push({ kind: "one", test: (x) => x !== "/" && inClass(x) !== negate });
      i = end;
    } else {
      const literal = c === "\\" && i + 1 < pattern.length ? pattern.charAt(++i) : c;
      tokens.push({ kind: "one", test: (x) => x === literal });
    }
  }
  // reachable[j]: the tokens so far can match text.slice(0, j).
  let reachable = new Array<boolean>(text.length + 1).fill(false);
  reachable[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    if (token.kind === "star") {
      // A star covers any run of characters without a "/".
      let open = false;
      for (let j = 0; j <= text.length; j++) {
        if (j > 0 && text.charAt(j - 1) === "/") open = false;
        open = open || (reachable[j] as boolean);
        next[j] = open;
      }
    } else {
      for (let j = 1; j <= text.length; j++) {
        next[j] = (reachable[j - 1] as boolean) && token.test(text.charAt(j - 1));
      }
    }
    reachable = next;
  }
  return reachable[text.length] as boolean;
}

export function basename(text: string): string {
  const trimmed = text.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  return slash < 0 ? trimmed : trimmed.slice(slash + 1);
}

/**
 * Whether a word, once the shell expands it, could be `literal`: equal after quote removal (by
 * basename for program names), a glob that matches it, or an expansion whose value is unknown.
 */
export function couldBe(
  word: ShellWord,
  literal: string,
  byBasename = false,
  budget?: Budget,
): boolean {
  const text = byBasename ? basename(word.text) : word.text;
  if (text === literal) return true;
  if (word.glob) {
    budget?.spend(text.length * (literal.length + 1));
    return globMatchesLiteral(text, literal);
  }
  return false;
}

export function couldName(word: ShellWord, program: "gh" | "git", budget: Budget): boolean {
  return couldBe(word, program, true, budget);
}

export function isFlag(word: ShellWord): boolean {
  return !word.dynamic && word.text.startsWith("-") && word.text.length > 1;
}

/** Plain words (no expansions, no globs) from already split text. */
export function literalTokens(parts: readonly string[]): ShellWord[] {
  return parts
    .filter((token) => token !== "")
    .map((token) => ({ text: token, dynamic: false, glob: false, literalStart: token }));
}
