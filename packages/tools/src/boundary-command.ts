import {
  parseShell,
  type ShellVariables,
  type ShellWord,
  type SimpleCommand,
} from "./shell-parse.ts";

/** The verdict on one Bash command. `reason` says which boundary action it would perform. */
export interface BoundaryCommandVerdict {
  readonly refused: boolean;
  readonly reason?: string;
}

export interface BoundaryCommandOptions {
  /**
   * Reads a script the command runs (`bash x.sh`, `./x.sh`, `source x`, `python x.py`, `sh < x`),
   * so "write a script, then run it" is inspected too. Returns undefined when the file does not
   * exist or may not be read; the toolbox passes a reader confined to the working directory.
   */
  readonly readScript?: (path: string) => string | undefined;
  /**
   * A closure step may label issues itself: `gh issue edit <issue>` whose only options are
   * `--add-label` / `--remove-label` (and `--repo`) is allowed. Closing, merging and releasing
   * stay refused; every other `gh issue edit` too.
   */
  readonly allowLabelEdits?: boolean;
}

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

/** Programs that run their arguments as shell code (`sh -c '…'`, `su -c '…'`, `script -c '…'`). */
const SHELLS = new Set([
  "sh",
  "bash",
  "rbash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "fish",
  "csh",
  "tcsh",
  "su",
  "runuser",
  "script",
]);

/** Programs that join their arguments into one shell command (`eval`, `ssh host cmd`, `watch`). */
const JOINING = new Set(["eval", "ssh", "watch"]);

/** Interpreters of other languages: their code is searched as text for gh / git invocations. */
const INTERPRETER =
  /^(?:python[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby|php[0-9.]*|lua[0-9.]*|tclsh|osascript|pwsh|powershell|[gnm]?awk|Rscript)$/;

/** Reserved words and `!` that may stand where a command name is expected. */
const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "in",
  "case",
  "esac",
  "!",
  "{",
  "}",
  "time",
  "function",
]);

const MAX_DEPTH = 8;
const MAX_SCRIPT_CHARS = 512 * 1024;

/**
 * Commands longer than this are not inspected: they are refused, with the advice to put the
 * work in a script file. The filter is a fast first refusal, and a bounded input keeps it fast.
 */
export const MAX_COMMAND_CHARS = 64 * 1024;

/**
 * Units of work the inspection may spend per character of the command (plus a fixed allowance):
 * a command that would need more (deeply nested shells re-read many times, thousands of gh/git
 * words each followed by a long push) is refused as too complex, so the time spent stays linear
 * in the command's length whatever its shape.
 */
const WORK_PER_CHAR = 32;
const WORK_ALLOWANCE = 1_000_000;
/** What starting to read a piece of source costs, beyond its length. */
const PARSE_COST = 64;

class TooComplex extends Error {}

/** The inspection's work budget; every loop over input spends from it. */
class Budget {
  private remaining: number;

  constructor(units: number) {
    this.remaining = units;
  }

  spend(units: number): void {
    this.remaining -= units;
    if (this.remaining < 0) throw new TooComplex();
  }
}

/**
 * Whether a Bash command would perform a boundary action: `gh issue close|reopen|delete|transfer|
 * edit`, `gh pr merge|close|ready`, `gh release create|delete|edit|upload|delete-asset`, `gh repo
 * delete|archive`, `gh api`, `gh alias set|import`, `git push` with a force (`--force`, `-f`,
 * `--force-with-lease`, `+refspec`, `--mirror`) or delete (`--delete`, `-d`, `:branch`, `--prune`).
 *
 * The command is read the way the shell reads it: quotes removed (`g"h"`), every command separated
 * by `;` `&&` `||` `|` `&` or a newline, `$(…)` and backticks read as commands, `sh -c` / `bash -c`
 * / `eval` arguments read as shell, `env` / `command` / `exec` / `xargs` / `nohup` / `sudo`… seen
 * through (every word of a command is checked for a `gh` or `git` program, by basename, so
 * `/usr/bin/gh` counts), variables the command assigns expanded, globs and braces considered.
 * What cannot be known (an environment variable, a substitution's output) is treated as "could be
 * anything": `gh $SUB …` and `git push origin $REF` are refused, with a reason asking for the
 * literal command.
 *
 * Text that is only data is not refused: `echo "gh issue close"` prints words, it does not run
 * them. Such text is refused only where it becomes code: `sh -c`, `eval`, a pipe into a shell or
 * an interpreter, a here-doc fed to one, `python -c`, `node -e`.
 *
 * This is a guard against accidents and obvious evasions, not a sandbox: programs that perform
 * boundary actions themselves (make targets, npm scripts, curl against the GitHub API, git aliases
 * already in the user's config) are out of its sight.
 */
export function isBoundaryCommand(
  command: string,
  options: BoundaryCommandOptions = {},
): BoundaryCommandVerdict {
  if (command.length > MAX_COMMAND_CHARS) {
    return {
      refused: true,
      reason: `the command is ${command.length} characters long, more than the ${MAX_COMMAND_CHARS} this check reads; write the commands to a script file and run the script.`,
    };
  }
  const budget = new Budget(WORK_ALLOWANCE + WORK_PER_CHAR * command.length);
  try {
    const reason = new BoundaryInspector(command, options, budget).shell(command, 0, new Map());
    return reason === undefined ? { refused: false } : { refused: true, reason };
  } catch (error) {
    if (!(error instanceof TooComplex)) throw error;
    return {
      refused: true,
      reason:
        "the command is too complex to check quickly (many nested shells, substitutions or gh/git words); write the commands to a script file and run the script.",
    };
  }
}

class BoundaryInspector {
  /** The verdict of searching the whole command as text, computed once when first needed. */
  private topScan: { readonly found: string | undefined } | undefined;

  constructor(
    private readonly topSource: string,
    private readonly options: BoundaryCommandOptions,
    private readonly budget: Budget,
  ) {}

  /** `textScan` of the whole command, once. */
  private scanTop(): string | undefined {
    this.topScan ??= { found: textScan(this.topSource, this.budget) };
    return this.topScan.found;
  }

  /** Inspects shell source; returns the reason of the first boundary action found. */
  shell(source: string, depth: number, vars: ShellVariables): string | undefined {
    if (depth > MAX_DEPTH) {
      return "the command nests shells or substitutions too deeply to inspect; write it flat.";
    }
    this.budget.spend(source.length + PARSE_COST);
    const parsed = parseShell(source, vars);
    for (const inner of parsed.nested) {
      const found = this.shell(inner, depth + 1, new Map(vars));
      if (found) return found;
    }
    for (const pipeline of parsed.pipelines) {
      for (const cmd of pipeline) {
        const found = this.command(cmd, depth, vars);
        if (found) return found;
      }
      // A pipe into a shell or an interpreter runs the text the other commands print.
      if (pipeline.length > 1 && pipeline.some((cmd) => cmd.words.some(isCodeRunner))) {
        for (const cmd of pipeline) {
          const found = textScan(
            [...cmd.words.map((w) => w.text), ...cmd.stdinTexts].join("\n"),
            this.budget,
          );
          if (found) return found;
        }
      }
    }
    return undefined;
  }

  private command(cmd: SimpleCommand, depth: number, vars: ShellVariables): string | undefined {
    const words = cmd.words;
    const budget = this.budget;
    budget.spend(words.length);
    const position = commandPosition(words);
    // The literal words, for `$(which gh) issue close`: the program is hidden, its arguments not.
    let literal: { words: ShellWord[]; after: number[] } | undefined;
    let viaXargs = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as ShellWord;
      const rest = new ArgView(words, i + 1, budget);
      const isGh = couldName(word, "gh", budget);
      const isGit = couldName(word, "git", budget);

      if (isGh) {
        const found = checkGh(rest, viaXargs, this.options.allowLabelEdits === true);
        if (found) return found;
      }
      if (isGit) {
        const found = checkGit(rest, viaXargs, (source) =>
          this.shell(source, depth + 1, new Map()),
        );
        if (found) return found;
      }
      if (word.dynamic && !isGh && !isGit) {
        literal ??= literalWords(words);
        const view = new ArgView(literal.words, literal.after[i] ?? literal.words.length, budget);
        const found = checkGh(view, false) ?? checkGit(view, false, () => undefined);
        if (found) return `the program name is hidden behind an expansion and ${found}`;
      }

      const name = basename(word.text);
      if (name === "xargs") viaXargs = true;
      if (SHELLS.has(name)) {
        const found = this.shellArguments(rest.toArray(), depth, vars);
        if (found) return found;
        for (const text of cmd.stdinTexts) {
          const inStdin = this.shell(text, depth + 1, new Map(vars));
          if (inStdin) return inStdin;
        }
        const redirected = this.redirectedScripts(cmd, depth, "shell");
        if (redirected) return redirected;
      } else if (JOINING.has(name)) {
        const joined = rest.toArray();
        if (joined.some((w) => w.dynamic) && name === "eval") {
          return "`eval` of an expansion hides the command it runs; write the command literally.";
        }
        const found = this.shell(joined.map((w) => w.text).join(" "), depth + 1, new Map(vars));
        if (found) return found;
      } else if (INTERPRETER.test(name)) {
        const found = this.interpreterArguments(rest.toArray(), cmd);
        if (found) return found;
      } else if ((name === "source" || name === ".") && i === position) {
        const first = rest.at(0);
        const script = first === undefined ? undefined : this.read(first.text);
        if (script !== undefined) {
          const found = this.shell(script, depth + 1, new Map());
          if (found) return found;
        }
      } else if (i === position && word.text.includes("/") && !word.dynamic) {
        // `./release.sh`: a script in the working directory, run directly.
        const found = this.scriptFile(word.text, depth);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** After `sh`: `-c` code, script files, and (conservatively) every other argument as shell. */
  private shellArguments(
    rest: readonly ShellWord[],
    depth: number,
    vars: ShellVariables,
  ): string | undefined {
    let codeNext = false;
    for (const word of rest) {
      const isOption = !word.dynamic && /^[-+][A-Za-z]+$/.test(word.text);
      if (isOption) {
        if (word.text.startsWith("-") && word.text.includes("c")) codeNext = true;
        continue;
      }
      if (codeNext && word.dynamic) {
        return "`sh -c` with code hidden behind an expansion cannot be inspected; write the command literally.";
      }
      const script = codeNext ? undefined : this.read(word.text);
      const found =
        script !== undefined
          ? this.shell(script, depth + 1, new Map())
          : this.shell(word.text, depth + 1, new Map(vars));
      if (found) return found;
      if (!codeNext && script === undefined && looksLikeScriptPath(word.text)) {
        // A script this very command creates before running it: search the whole command's text.
        const inSource = this.scanTop();
        if (inSource) return inSource;
      }
      codeNext = false;
    }
    return undefined;
  }

  private interpreterArguments(rest: readonly ShellWord[], cmd: SimpleCommand): string | undefined {
    for (const word of rest) {
      const found = textScan(word.text, this.budget);
      if (found) return found;
      if (word.text.startsWith("-")) continue;
      const script = this.read(word.text);
      if (script !== undefined) {
        const inScript = textScan(script, this.budget);
        if (inScript) return inScript;
      } else if (looksLikeScriptPath(word.text)) {
        const inSource = this.scanTop();
        if (inSource) return inSource;
      }
    }
    for (const text of cmd.stdinTexts) {
      const found = textScan(text, this.budget);
      if (found) return found;
    }
    return this.redirectedScripts(cmd, 0, "text");
  }

  /** `sh < script.sh`, `python < x.py`. */
  private redirectedScripts(
    cmd: SimpleCommand,
    depth: number,
    as: "shell" | "text",
  ): string | undefined {
    for (const redirect of cmd.redirects) {
      if (redirect.op !== "<") continue;
      const script = this.read(redirect.target.text);
      if (script === undefined) continue;
      const found =
        as === "shell" ? this.shell(script, depth + 1, new Map()) : textScan(script, this.budget);
      if (found) return found;
    }
    return undefined;
  }

  private scriptFile(path: string, depth: number): string | undefined {
    const script = this.read(path);
    if (script === undefined) {
      return looksLikeScriptPath(path) ? this.scanTop() : undefined;
    }
    const shebang = /^#!.*$/m.exec(script.slice(0, 200))?.[0] ?? "";
    const interpreted = shebang
      .split(/[\s/]+/)
      .some((part) => INTERPRETER.test(part) && !SHELLS.has(part));
    return interpreted ? textScan(script, this.budget) : this.shell(script, depth + 1, new Map());
  }

  private read(path: string): string | undefined {
    if (this.options.readScript === undefined || path === "" || path.startsWith("-")) {
      return undefined;
    }
    const text = this.options.readScript(path);
    if (text === undefined) return undefined;
    this.budget.spend(Math.min(text.length, MAX_SCRIPT_CHARS));
    return text.slice(0, MAX_SCRIPT_CHARS);
  }
}

/** The index of the word that is the program of a simple command (after assignments, keywords). */
function commandPosition(words: readonly ShellWord[]): number {
  let i = 0;
  while (i < words.length) {
    const text = (words[i] as ShellWord).text;
    if (RESERVED.has(text) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) i++;
    else break;
  }
  return i;
}

/**
 * The arguments after a word, without copying them: each check reads only as far as it needs,
 * and pays for what it reads.
 */
class ArgView {
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

/** The words that are not expansions, and for each word the index of the next literal one. */
function literalWords(words: readonly ShellWord[]): { words: ShellWord[]; after: number[] } {
  const literal: ShellWord[] = [];
  const after: number[] = new Array(words.length);
  for (const word of words) if (!word.dynamic) literal.push(word);
  // after[i]: how many literal words stand at or before i, i.e. where the literal words after i start.
  let count = 0;
  for (let i = 0; i < words.length; i++) {
    if (!(words[i] as ShellWord).dynamic) count++;
    after[i] = count;
  }
  return { words: literal, after };
}

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

function isCodeRunner(word: ShellWord): boolean {
  const name = basename(word.text);
  return SHELLS.has(name) || JOINING.has(name) || INTERPRETER.test(name);
}

function looksLikeScriptPath(text: string): boolean {
  return (
    !/\s/.test(text) &&
    (text.includes("/") || /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php)$/.test(text))
  );
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
function couldBe(word: ShellWord, literal: string, byBasename = false, budget?: Budget): boolean {
  const text = byBasename ? basename(word.text) : word.text;
  if (text === literal) return true;
  if (word.glob) {
    budget?.spend(text.length * (literal.length + 1));
    return globMatchesLiteral(text, literal);
  }
  return false;
}

function couldName(word: ShellWord, program: "gh" | "git", budget: Budget): boolean {
  return couldBe(word, program, true, budget);
}

function isFlag(word: ShellWord): boolean {
  return !word.dynamic && word.text.startsWith("-") && word.text.length > 1;
}

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
function checkGh(args: ArgView, viaXargs: boolean, allowLabelEdits = false): string | undefined {
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
function checkGit(
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

/**
 * Searches code of another language (or text piped into a shell) for gh / git invocations: quotes,
 * brackets and commas become spaces, so `subprocess.run(["gh", "issue", "close", "1"])` reads as
 * `gh issue close 1`.
 */
export function textScan(
  text: string,
  budget = new Budget(WORK_ALLOWANCE + WORK_PER_CHAR * text.length),
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

/** Plain words (no expansions, no globs) from already split text. */
function literalTokens(parts: readonly string[]): ShellWord[] {
  return parts
    .filter((token) => token !== "")
    .map((token) => ({ text: token, dynamic: false, glob: false, literalStart: token }));
}
