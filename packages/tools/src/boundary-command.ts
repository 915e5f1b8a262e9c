import { ArgView } from "./arg-view.ts";
import { checkGh } from "./gh-boundary.ts";
import { checkGit } from "./git-boundary.ts";
import {
  parseShell,
  type ShellVariables,
  type ShellWord,
  type SimpleCommand,
} from "./shell-parse.ts";
import { basename, couldName } from "./shell-word-match.ts";
import { textScan } from "./text-scan.ts";
import { Budget, PARSE_COST, TooComplex, WORK_ALLOWANCE, WORK_PER_CHAR } from "./work-budget.ts";

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
export const MAX_COMMAND_CHARS: number = 64 * 1024;

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
