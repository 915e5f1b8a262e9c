import type { ArgView } from "./arg-view.ts";
import type { ShellWord } from "./shell-parse.ts";
import { couldBe, isFlag, literalTokens } from "./shell-word-match.ts";

/** git options placed before the subcommand that take a separate value. */
const GIT_GLOBAL_VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
  "--exec-path",
]);

/** `git …` arguments → the reason it is a boundary action, if it is one. */
export function checkGit(
  args: ArgView,
  viaXargs: boolean,
  inspect: (source: string) => string | undefined,
): string | undefined {
  let k = 0;
  while (k < args.length) {
    const word = args.at(k) as ShellWord;
    if (!isFlag(word)) break;
    if (word.text === "-c") {
      const value = args.at(k + 1);
      const found = value === undefined ? undefined : checkGitAlias(value.text, inspect, args);
      if (found) return found;
      if (value !== undefined && /^remote\.[^=]*\.mirror(?:=|$)/i.test(value.text)) {
        return "`git -c remote.<name>.mirror` makes a push mirror (force and delete); it is refused in every step.";
      }
    }
    k += GIT_GLOBAL_VALUE_OPTIONS.has(word.text) ? 2 : 1;
  }
  const subcommand = args.at(k);
  const after = args.from(k + 1);
  if (subcommand === undefined) {
    return viaXargs
      ? "`xargs git` takes the git subcommand from its input, which could be a force or delete push; write the git command literally."
      : undefined;
  }
  if (subcommand.dynamic || couldBe(subcommand, "push") || couldBe(subcommand, "send-pack")) {
    return checkPush(after, viaXargs, subcommand.dynamic);
  }
  if (couldBe(subcommand, "config")) {
    for (let j = 0; j < after.length; j++) {
      const word = after.at(j) as ShellWord;
      if (!word.text.startsWith("alias.")) continue;
      const eq = word.text.indexOf("=");
      const value = eq >= 0 ? word.text.slice(eq + 1) : after.at(j + 1)?.text;
      const found =
        value === undefined ? undefined : checkGitAlias(`alias.x=${value}`, inspect, args);
      if (found) return found;
    }
  }
  return undefined;
}

/** `alias.<name>=<value>`: a git alias that pushes with force or delete, or runs a boundary command. */
function checkGitAlias(
  setting: string,
  inspect: (source: string) => string | undefined,
  within: ArgView,
): string | undefined {
  const match = /^alias\.[^=]*=([\s\S]*)$/.exec(setting);
  if (match?.[1] === undefined) return undefined;
  const value = match[1].trim();
  const found = value.startsWith("!")
    ? inspect(value.slice(1))
    : checkGit(within.sibling(literalTokens(value.split(/\s+/))), false, inspect);
  return found ? `a git alias is defined that runs a boundary action: ${found}` : undefined;
}

function checkPush(
  args: ArgView,
  viaXargs: boolean,
  hiddenSubcommand: boolean,
): string | undefined {
  const force =
    "`git push` with a force (--force, -f, --force-with-lease, --mirror or a +refspec) rewrites remote history; it is refused in every step.";
  const remove =
    "`git push` that deletes a remote ref (--delete, -d, --prune or a :refspec) is refused in every step.";
  if (viaXargs && !hiddenSubcommand) {
    return "`xargs git push` takes arguments from its input, which could force or delete; write the git push literally.";
  }
  let positionalsOnly = false;
  for (let k = 0; k < args.length; k++) {
    const word = args.at(k) as ShellWord;
    const text = word.text;
    if (word.dynamic) {
      // `HEAD:refs/heads/$BRANCH` cannot become a flag, a +refspec or a :refspec.
      if (hiddenSubcommand || /^[^-+:]/.test(word.literalStart)) continue;
      return "`git push` with an argument hidden behind an expansion could force or delete; write the refspec and flags literally (`git push origin HEAD` pushes the current branch).";
    }
    if (!positionalsOnly && text === "--") {
      positionalsOnly = true;
      continue;
    }
    if (!positionalsOnly && text.startsWith("--")) {
      const name = text.slice(2).split("=")[0] ?? "";
      // git accepts any unambiguous prefix of a long option (`--force-w`, `--mirr`, `--del`).
      const abbreviates = (full: string): boolean => name.length >= 2 && full.startsWith(name);
      if (["force", "force-with-lease", "force-if-includes", "mirror"].some(abbreviates)) {
        return force;
      }
      if (["delete", "prune"].some(abbreviates)) return remove;
      if (["repo", "receive-pack", "exec", "push-option"].includes(name) && !text.includes("="))
        k++;
      continue;
    }
    if (!positionalsOnly && text.startsWith("-") && text.length > 1) {
      for (let j = 1; j < text.length; j++) {
        const flag = text.charAt(j);
        if (flag === "o") {
          if (j === text.length - 1) k++;
          break;
        }
        if (flag === "f") return force;
        if (flag === "d") return remove;
      }
      continue;
    }
    if (text.startsWith("+")) return force;
    if (text.startsWith(":")) return remove;
  }
  return undefined;
}
