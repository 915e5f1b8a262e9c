import { ArgView } from "./arg-view.ts";
import { checkGh } from "./gh-boundary.ts";
import { checkGit } from "./git-boundary.ts";
import type { ShellWord } from "./shell-parse.ts";
import { basename, literalTokens } from "./shell-word-match.ts";
import { Budget, PARSE_COST, WORK_ALLOWANCE, WORK_PER_CHAR } from "./work-budget.ts";

/**
 * Searches code of another language (or text piped into a shell) for gh / git invocations: quotes,
 * brackets and commas become spaces, so `subprocess.run(["gh", "issue", "close", "1"])` reads as
 * `gh issue close 1`.
 */
export function textScan(
  text: string,
  budget: Budget = new Budget(WORK_ALLOWANCE + WORK_PER_CHAR * text.length),
): string | undefined {
  budget.spend(text.length + PARSE_COST);
  const tokens = literalTokens(text.split(/[^A-Za-z0-9_./:+=@%~-]+/));
  for (let i = 0; i < tokens.length; i++) {
    const name = basename((tokens[i] as ShellWord).text);
    if (name !== "gh" && name !== "git") continue;
    const rest = new ArgView(tokens, i + 1, budget);
    const found = name === "gh" ? checkGh(rest, false) : checkGit(rest, false, () => undefined);
    if (found) return found;
  }
  return undefined;
}
