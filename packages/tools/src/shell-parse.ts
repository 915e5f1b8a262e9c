/**
 * A small POSIX-shell reader, written for one job: finding every command a `sh -c` string can run,
 * so the boundary filter can look at each of them. It is not an interpreter. It removes quotes,
 * splits on `;` `&&` `||` `|` `&` newlines and parentheses, drops redirections, expands braces and
 * the variables the same string assigns, and hands back the source of every command substitution
 * (`$(…)`, backticks, `<(…)`, `${…}`) so the caller can read those as shell too. Anything whose
 * value it cannot know (an environment variable, a substitution's output) marks the word dynamic,
 * and the caller treats a dynamic word as "could be anything".
 */

import { type Char, expandBraces } from "./shell-braces.ts";
import { findClosing, readAnsiC, substitutionsIn } from "./shell-quoting.ts";

/** One word after quote removal, as the shell would pass it to a program. */
export interface ShellWord {
  readonly text: string;
  /** Contains an expansion whose value is unknown here: `$HOME`, `$(…)`, `` `…` ``, `$1`. */
  readonly dynamic: boolean;
  /** Contains unquoted `*`, `?` or `[`: the shell may replace it with matching file names. */
  readonly glob: boolean;
  /** The literal text before the first unknown expansion (all of `text` when not dynamic). */
  readonly literalStart: string;
}

export interface Redirect {
  /** `<`, `>`, `>>`, `<>`, `<&`, `>&`, `&>`, `&>>`, `>|`. */
  readonly op: string;
  readonly target: ShellWord;
}

export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  readonly redirects: readonly Redirect[];
  /** Here-strings (`<<< text`) and here-document bodies this command reads on stdin. */
  readonly stdinTexts: readonly string[];
}

/** Commands joined by `|`: the output of one is the input of the next. */
export type Pipeline = readonly SimpleCommand[];

export interface ParsedShell {
  readonly pipelines: readonly Pipeline[];
  /** Sources of command substitutions and `${…}` bodies, in order, to be read as shell too. */
  readonly nested: readonly string[];
}

/**
 * Variables the string assigns (`X=gh; $X issue close`). `null` marks a variable assigned a value
 * this reader cannot know. Variables not in the map come from the environment: dynamic.
 */
export type ShellVariables = Map<string, string | null>;

interface MutableCommand {
  words: ShellWord[];
  redirects: Redirect[];
  stdinTexts: string[];
}

interface PendingHeredoc {
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  readonly into: string[];
}

export function parseShell(source: string, variables: ShellVariables = new Map()): ParsedShell {
  return new ShellReader(source, variables).read();
}

function newCommand(): MutableCommand {
  return { words: [], redirects: [], stdinTexts: [] };
}

class ShellReader {
  private i = 0;
  private readonly pipelines: SimpleCommand[][] = [];
  private pipeline: SimpleCommand[] = [];
  private command: MutableCommand = newCommand();
  private chars: Char[] = [];
  private inWord = false;
  private dynamic = false;
  /** Length of the literal start of the current word, once an unknown expansion appeared. */
  private literalLength: number | undefined;
  private pendingRedirect: string | undefined;
  private heredocs: PendingHeredoc[] = [];
  private readonly nested: string[] = [];

  constructor(
    private readonly src: string,
    private readonly vars: ShellVariables,
  ) {}

  read(): ParsedShell {
    const s = this.src;
    while (this.i < s.length) {
      const c = s.charAt(this.i);
      const next = s.charAt(this.i + 1);
      if (c === " " || c === "\t" || c === "\r") {
        this.endWord();
        this.i++;
      } else if (c === "\n") {
        this.endPipeline();
        this.i++;
        this.readHeredocBodies();
      } else if (c === "#" && !this.inWord) {
        const end = s.indexOf("\n", this.i);
        this.i = end < 0 ? s.length : end;
      } else if (c === "\\") {
        if (next === "\n") this.i += 2;
        else if (next === "") this.i++;
        else {
          this.push(next, true);
          this.i += 2;
        }
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        this.pushText(end < 0 ? s.slice(this.i + 1) : s.slice(this.i + 1, end), true);
        this.i = end < 0 ? s.length : end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted();
      } else if (c === "`") {
        this.readBacktick(false);
      } else if (c === "$") {
        this.readDollar(false);
      } else if (c === ";") {
        this.endPipeline();
        this.i++;
      } else if (c === "&") {
        if (next === "&") {
          this.endPipeline();
          this.i += 2;
        } else if (next === ">") {
          this.endWord();
          this.i += s.charAt(this.i + 2) === ">" ? 3 : 2;
          this.pendingRedirect = "&>";
        } else {
          this.endPipeline();
          this.i++;
        }
      } else if (c === "|") {
        if (next === "|") {
          this.endPipeline();
          this.i += 2;
        } else {
          this.endCommand();
          this.i += next === "&" ? 2 : 1;
        }
      } else if (c === "(" || c === ")") {
        this.endPipeline();
        this.i++;
      } else if (c === "<" || c === ">") {
        this.readRedirect();
      } else {
        this.push(c, false);
        this.i++;
      }
    }
    this.endPipeline();
    return { pipelines: this.pipelines, nested: this.nested };
  }

  // --- words ---------------------------------------------------------------------------------

  private push(c: string, quoted: boolean): void {
    this.chars.push({ c, quoted });
    this.inWord = true;
  }

  private pushText(text: string, quoted: boolean): void {
    for (const c of text) this.chars.push({ c, quoted });
    this.inWord = true;
  }

  /**
   * A placeholder for an expansion whose value is unknown. Unquoted, its value may split into
   * several words, so nothing of the word's start is known any more.
   */
  private pushDynamic(raw: string, quoted: boolean): void {
    this.literalLength = quoted ? (this.literalLength ?? this.chars.length) : 0;
    this.pushText(raw, true);
    this.dynamic = true;
  }

  private endWord(): void {
    if (!this.inWord) return;
    const chars = this.chars;
    const dynamic = this.dynamic;
    const literalLength = this.literalLength ?? chars.length;
    this.chars = [];
    this.inWord = false;
    this.dynamic = false;
    this.literalLength = undefined;

    const redirect = this.pendingRedirect;
    if (redirect !== undefined) {
      this.pendingRedirect = undefined;
      const target = toWord(chars, dynamic, literalLength);
      if (redirect === "<<" || redirect === "<<-") {
        this.heredocs.push({
          delimiter: target.text,
          quoted: chars.some((ch) => ch.quoted),
          stripTabs: redirect === "<<-",
          into: this.command.stdinTexts,
        });
      } else if (redirect === "<<<") {
        this.command.stdinTexts.push(target.text);
      } else {
        this.command.redirects.push({ op: redirect, target });
      }
      return;
    }

    const expansions = expandBraces(chars);
    for (const expanded of expansions) {
      // `{gh,}` yields "gh" and an empty word; unquoted empty words vanish.
      if (expansions.length > 1 && expanded.length === 0) continue;
      const word = toWord(expanded, dynamic, dynamic ? literalLength : expanded.length);
      this.recordAssignment(expanded, word);
      this.command.words.push(word);
    }
  }

  /** `NAME=value` (NAME unquoted): later `$NAME` in the same string expands to value. */
  private recordAssignment(chars: readonly Char[], word: ShellWord): void {
    const eq = chars.findIndex((ch) => ch.c === "=");
    if (eq <= 0 || chars.slice(0, eq + 1).some((ch) => ch.quoted)) return;
    const name = word.text.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    this.vars.set(name, word.dynamic ? null : word.text.slice(eq + 1));
  }

  private endCommand(): void {
    this.endWord();
    this.pendingRedirect = undefined;
    const cmd = this.command;
    if (cmd.words.length > 0 || cmd.redirects.length > 0 || cmd.stdinTexts.length > 0) {
      this.pipeline.push(cmd);
    }
    this.command = newCommand();
  }

  private endPipeline(): void {
    this.endCommand();
    if (this.pipeline.length > 0) this.pipelines.push(this.pipeline);
    this.pipeline = [];
  }

  // --- quoting and expansions ----------------------------------------------------------------

  private readDoubleQuoted(): void {
    const s = this.src;
    this.inWord = true;
    this.i++;
    while (this.i < s.length) {
      const c = s.charAt(this.i);
      if (c === "\\") {
        const n = s.charAt(this.i + 1);
        if (n === "\n") this.i += 2;
        else if (n === "$" || n === "`" || n === '"' || n === "\\") {
          this.push(n, true);
          this.i += 2;
        } else {
          this.push("\\", true);
          this.i++;
        }
      } else if (c === "$") {
        this.readDollar(true);
      } else if (c === "`") {
        this.readBacktick(true);
      } else if (c === '"') {
        this.i++;
        return;
      } else {
        this.push(c, true);
        this.i++;
      }
    }
  }

  private readBacktick(inDouble: boolean): void {
    const s = this.src;
    let j = this.i + 1;
    while (j < s.length && s.charAt(j) !== "`") j += s.charAt(j) === "\\" ? 2 : 1;
    const inner = s.slice(this.i + 1, Math.min(j, s.length)).replace(/\\([`\\$])/g, "$1");
    this.nested.push(inner);
    this.pushDynamic(s.slice(this.i, j + 1), inDouble);
    this.i = j + 1;
  }

  private readDollar(inDouble: boolean): void {
    const s = this.src;
    const start = this.i;
    const next = s.charAt(start + 1);
    if (next === "(") {
      const end = findClosing(s, start + 1, "(", ")");
      this.nested.push(s.slice(start + 2, end));
      this.pushDynamic(s.slice(start, end + 1), inDouble);
      this.i = end + 1;
    } else if (next === "{") {
      const end = findClosing(s, start + 1, "{", "}");
      const body = s.slice(start + 2, end);
      this.i = end + 1;
      const value = /^[A-Za-z_][A-Za-z0-9_]*$/.test(body) ? this.vars.get(body) : undefined;
      if (typeof value === "string") this.insertValue(value, inDouble);
      else {
        this.nested.push(body);
        this.pushDynamic(s.slice(start, end + 1), inDouble);
      }
    } else if (!inDouble && next === "'") {
      const { text, end } = readAnsiC(s, start + 2);
      this.pushText(text, true);
      this.i = end;
    } else if (!inDouble && next === '"') {
      // $"…" is a translatable string: the same as "…" here.
      this.i++;
    } else if (/[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(start + 1))?.[0] ?? next;
      this.i = start + 1 + name.length;
      const value = this.vars.get(name);
      if (typeof value === "string") this.insertValue(value, inDouble);
      else this.pushDynamic(`$${name}`, inDouble);
    } else if (/[0-9@*#?$!-]/.test(next) && next !== "") {
      this.pushDynamic(`$${next}`, inDouble);
      this.i = start + 2;
    } else {
      this.push("$", true);
      this.i++;
    }
  }

  /** A known variable's value; unquoted, it is split into words on whitespace as the shell does. */
  private insertValue(value: string, inDouble: boolean): void {
    this.inWord = true;
    for (const c of value) {
      if (!inDouble && /\s/.test(c)) this.endWord();
      else this.push(c, true);
    }
  }

  private readRedirect(): void {
    const s = this.src;
    const c = s.charAt(this.i);
    const next = s.charAt(this.i + 1);
    if (next === "(") {
      // Process substitution <(…) / >(…): runs a command; the word is a /dev/fd path.
      const end = findClosing(s, this.i + 1, "(", ")");
      this.nested.push(s.slice(this.i + 2, end));
      // The word becomes one /dev/fd path: it does not split.
      this.pushDynamic(s.slice(this.i, end + 1), true);
      this.i = end + 1;
      return;
    }
    // `2>&1`: digits written right before the operator name a file descriptor, not an argument.
    const isFd =
      this.inWord &&
      !this.dynamic &&
      this.chars.length > 0 &&
      this.chars.every((ch) => !ch.quoted && ch.c >= "0" && ch.c <= "9");
    if (isFd) {
      this.chars = [];
      this.inWord = false;
      this.literalLength = undefined;
    } else {
      this.endWord();
    }
    let op = c;
    this.i++;
    const a = s.charAt(this.i);
    if (c === "<") {
      if (a === "<") {
        this.i++;
        const b = s.charAt(this.i);
        if (b === "<") {
          this.i++;
          op = "<<<";
        } else if (b === "-") {
          this.i++;
          op = "<<-";
        } else {
          op = "<<";
        }
      } else if (a === ">" || a === "&") {
        this.i++;
        op = `<${a}`;
      }
    } else if (a === ">" || a === "|" || a === "&") {
      this.i++;
      op = `>${a}`;
    }
    this.pendingRedirect = op;
  }

  private readHeredocBodies(): void {
    const s = this.src;
    for (const doc of this.heredocs) {
      const lines: string[] = [];
      while (this.i < s.length) {
        const nl = s.indexOf("\n", this.i);
        const raw = nl < 0 ? s.slice(this.i) : s.slice(this.i, nl);
        this.i = nl < 0 ? s.length : nl + 1;
        const line = doc.stripTabs ? raw.replace(/^\t+/, "") : raw;
        if (line === doc.delimiter) break;
        lines.push(line);
      }
      const body = lines.join("\n");
      doc.into.push(body);
      // An unquoted delimiter means the body is expanded: substitutions in it run.
      if (!doc.quoted) this.nested.push(...substitutionsIn(body));
    }
    this.heredocs = [];
  }
}

function toWord(chars: readonly Char[], dynamic: boolean, literalLength: number): ShellWord {
  const text = chars.map((ch) => ch.c).join("");
  return {
    text,
    dynamic,
    literalStart: text.slice(0, literalLength),
    glob: chars.some((ch) => !ch.quoted && (ch.c === "*" || ch.c === "?" || ch.c === "[")),
  };
}
