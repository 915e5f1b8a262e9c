import type { ArgView } from "./arg-view.ts";
import type { ShellWord } from "./shell-parse.ts";
import { couldBe, isFlag } from "./shell-word-match.ts";

/**
 * `gh <group> <action>` pairs that are boundary actions. Only the boundary hook, after validated
 * completion, may close, merge, release or delete. `gh api` (any call) is refused because it can
 * do all of these; `gh alias set|import` because an alias can hide any of them.
 */
const GH_BOUNDARY: Readonly<Record<string, readonly string[]>> = {
  issue: ["close", "reopen", "delete", "transfer", "edit"],
  pr: ["merge", "close", "ready"],
  release: ["create", "delete", "edit", "upload", "delete-asset"],
  repo: ["delete", "archive"],
  alias: ["set", "import"],
};

/** Flags that may follow `gh issue|pr edit N` without making it more than a label change. */
const LABEL_FLAGS = new Set(["--add-label", "--remove-label", "-R", "--repo"]);

/**
 * `gh issue|pr edit N --add-label X --remove-label Y`: a label change. Only a closure step's
 * filter lets it through (`allowLabelEdits`); the sandbox's gh broker decides the same way on argv.
 */
function isLabelEdit(args: ArgView, actionIndex: number): boolean {
  let positionals = 0;
  for (let k = actionIndex + 1; k < args.length; k++) {
    const word = args.at(k) as ShellWord;
    if (word.dynamic) return false;
    const name = word.text.split("=")[0] ?? "";
    if (word.text.startsWith("-")) {
      if (!LABEL_FLAGS.has(name)) return false;
      if (!word.text.includes("=")) k++;
    } else if (++positionals > 1) {
      return false;
    }
  }
  return positionals === 1;
}

/** `gh …` arguments → the reason it is a boundary action, if it is one. */
export function checkGh(
  args: ArgView,
  viaXargs: boolean,
  allowLabelEdits = false,
): string | undefined {
  const positionals: { word: ShellWord; index: number }[] = [];
  for (let k = 0; k < args.length && positionals.length < 2; k++) {
    const word = args.at(k) as ShellWord;
    if (isFlag(word)) {
      if (word.text === "-R" || word.text === "--repo") k++;
      continue;
    }
    positionals.push({ word, index: k });
  }
  const group = positionals[0]?.word;
  const action = positionals[1]?.word;
  if (group === undefined) {
    return viaXargs
      ? "`xargs gh` takes the gh subcommand from its input, which could be a boundary action; write the gh command literally."
      : undefined;
  }
  if (group.dynamic) {
    return "the gh subcommand is hidden behind an expansion (it could be `gh api` or `gh issue close`); write the gh command literally.";
  }
  if (couldBe(group, "api")) {
    return "`gh api` can change anything on GitHub (close, merge, release); it is refused in every step. Use read-only gh subcommands such as `gh issue view`.";
  }
  for (const [name, actions] of Object.entries(GH_BOUNDARY)) {
    if (!couldBe(group, name)) continue;
    if (action === undefined) {
      if (viaXargs) {
        return `\`xargs gh ${name}\` takes the action from its input, which could be a boundary action; write the gh command literally.`;
      }
      continue;
    }
    if (action.dynamic) {
      return `the action of \`gh ${name}\` is hidden behind an expansion; write the gh command literally.`;
    }
    const hit = actions.find((candidate) => couldBe(action, candidate));
    if (
      hit === "edit" &&
      allowLabelEdits &&
      !viaXargs &&
      isLabelEdit(args, positionals[1]?.index ?? 0)
    ) {
      continue;
    }
    if (hit !== undefined) return ghReason(name, hit);
  }
  return undefined;
}

function ghReason(group: string, action: string): string {
  if (group === "alias") {
    return `\`gh alias ${action}\` can hide boundary actions behind a new name; it is refused in every step.`;
  }
  return `\`gh ${group} ${action}\` is a boundary action: only the boundary hook may perform it, once, after the completion chain validated the run.`;
}
