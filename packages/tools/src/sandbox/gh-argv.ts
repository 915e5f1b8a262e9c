/**
 * Reads a `gh` argument vector the way gh does (cobra finds the command, spf13/pflag parses its
 * flags), against the command tree of `gh-commands.ts`. Anything gh would read differently from
 * this model, or that the model does not know, is refused rather than guessed:
 *
 * - the command path is found as cobra's `Find` does: at each level the non-flag words are
 *   collected, a `--flag` without `=` or a two-character `-f` that is not a boolean of that level
 *   swallowing the next word as its value; the first word names the child, and its first
 *   occurrence is removed. Older and newer cobra remove different occurrences when the name is
 *   also a flag's value; a vector where they differ is refused;
 * - the leaf's arguments are parsed as pflag does: `--` ends the flags, `--name=value`,
 *   `--name value`, `-abc` (booleans grouped), `-Xvalue`, `-X value`, `-X=value`, a value-taking
 *   letter inside a group taking the rest of it, a value taken whatever it looks like (`--body
 *   -x`), flags anywhere among positionals, repeated flags kept in order; `--help` / `-h` ask for
 *   help and stop; an unknown flag, a bad boolean, a missing value, `---x` or `-test.*` (which
 *   pflag silently skips) is refused. Pure.
 */
import { GH_ROOT, type GhCommand, type GhFlag } from "./gh-commands.ts";

export interface ParsedGh {
  /** The command path below `gh`, e.g. `["issue", "close"]`. */
  readonly path: readonly string[];
  /** Positional arguments of the leaf. */
  readonly args: readonly string[];
  /** Long flag name → its values in order (booleans as `true` / `false`). */
  readonly flags: ReadonlyMap<string, readonly string[]>;
  /** `--help` or `-h`: gh prints the command's help and does nothing else. */
  readonly help: boolean;
}

export type GhParse =
  | { readonly ok: true; readonly parsed: ParsedGh }
  | { readonly ok: false; readonly reason: string };

const BOOL_VALUES: Readonly<Record<string, boolean>> = {
  "1": true,
  t: true,
  T: true,
  true: true,
  TRUE: true,
  True: true,
  "0": false,
  f: false,
  F: false,
  false: false,
  FALSE: false,
  False: false,
};

class Refusal extends Error {}

/** The flags a command sees: its own, and the persistent ones of itself and its ancestors. */
function flagsOf(chain: readonly GhCommand[]): GhFlag[] {
  const last = chain.at(-1) as GhCommand;
  return [...last.flags, ...chain.flatMap((command) => command.persistent ?? [])];
}

function isBool(flags: readonly GhFlag[], match: (flag: GhFlag) => boolean): boolean {
  return flags.some((flag) => match(flag) && flag.kind === "bool");
}

/**
 * cobra's view of which words are flag values at one level: `--name` (no `=`) and two-character
 * `-x` take the next word unless they are booleans known at this level; an unknown flag counts
 * as taking one. Returns the index of each word that is not a flag or a flag's value.
 */
function nonFlagIndexes(args: readonly string[], flags: readonly GhFlag[]): number[] {
  const found: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") break;
    const longTakesNext =
      word.startsWith("--") &&
      !word.includes("=") &&
      !isBool(flags, (f) => f.name === word.slice(2));
    const shortTakesNext =
      word.startsWith("-") &&
      !word.startsWith("--") &&
      !word.includes("=") &&
      word.length === 2 &&
      !isBool(flags, (f) => f.short === word.slice(1));
    if (longTakesNext || shortTakesNext) {
      i++;
      continue;
    }
    if (word !== "" && !word.startsWith("-")) found.push(i);
  }
  return found;
}

/**
 * Finds the command, as cobra does, and the arguments left for its flag parser. Refuses a word
 * at a level that is not a command the broker knows, and a vector where older cobra (removes the
 * first occurrence of the name anywhere) and newer cobra (skips flag values) would disagree.
 */
function findCommand(argv: readonly string[]): { chain: GhCommand[]; rest: string[] } {
  const chain: GhCommand[] = [GH_ROOT];
  let rest = [...argv];
  for (;;) {
    const command = chain.at(-1) as GhCommand;
    if (command.children === undefined) return { chain, rest };
    const flags = flagsOf(chain);
    const words = nonFlagIndexes(rest, flags);
    const first = words[0];
    const path = chain
      .slice(1)
      .map((c) => c.name)
      .join(" ");
    if (first === undefined) {
      throw new Refusal(
        `\`gh${path === "" ? "" : ` ${path}`}\` without a subcommand is not brokered.`,
      );
    }
    const name = rest[first] as string;
    const child = command.children.find((candidate) => candidate.name === name);
    if (child === undefined) {
      throw new Refusal(`\`gh${path === "" ? "" : ` ${path}`} ${name}\` is not brokered.`);
    }
    const older = rest.indexOf(name);
    if (older !== first) {
      throw new Refusal(
        `"${name}" is also the value of a flag before it; gh versions disagree on which word is the command. Write the command words first.`,
      );
    }
    rest = [...rest.slice(0, first), ...rest.slice(first + 1)];
    chain.push(child);
  }
}

function boolValue(text: string, shown: string): string {
  const value = BOOL_VALUES[text];
  if (value === undefined) throw new Refusal(`${shown}: "${text}" is not true or false.`);
  return String(value);
}

/** Parses a leaf's arguments as pflag does. */
function parseFlags(
  args: readonly string[],
  flags: readonly GhFlag[],
  path: string,
): Omit<ParsedGh, "path"> {
  const values = new Map<string, string[]>();
  const positionals: string[] = [];
  const set = (flag: GhFlag, value: string): void => {
    values.set(flag.name, [...(values.get(flag.name) ?? []), value]);
  };
  const help = (): Omit<ParsedGh, "path"> => ({ args: positionals, flags: values, help: true });
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (word.length < 2 || !word.startsWith("-")) {
      positionals.push(word);
      continue;
    }
    if (word.startsWith("--")) {
      const body = word.slice(2);
      if (body.startsWith("-") || body.startsWith("=")) {
        throw new Refusal(`\`${word}\` is not a flag gh can read.`);
      }
      const eq = body.indexOf("=");
      const name = eq < 0 ? body : body.slice(0, eq);
      const flag = flags.find((candidate) => candidate.name === name);
      if (flag === undefined) {
        if (name === "help") return help();
        throw new Refusal(`\`gh ${path}\` has no flag \`--${name}\` the broker knows.`);
      }
      if (eq >= 0) {
        const value = body.slice(eq + 1);
        set(flag, flag.kind === "bool" ? boolValue(value, `--${name}`) : value);
      } else if (flag.kind === "bool") {
        set(flag, "true");
      } else if (i + 1 < args.length) {
        set(flag, args[++i] as string);
      } else {
        throw new Refusal(`\`--${name}\` needs a value.`);
      }
      if (flag.name === "help" && values.get("help")?.at(-1) === "true") return help();
      continue;
    }
    let letters = word.slice(1);
    if (letters.startsWith("test.")) {
      throw new Refusal(`\`${word}\`: gh's parser skips \`-test.\` arguments silently.`);
    }
    while (letters.length > 0) {
      const letter = letters[0] as string;
      const flag = flags.find((candidate) => candidate.short === letter);
      if (flag === undefined) {
        if (letter === "h") return help();
        throw new Refusal(
          `\`gh ${path}\` has no flag \`-${letter}\` the broker knows (in \`${word}\`).`,
        );
      }
      if (letters.length > 2 && letters[1] === "=") {
        const value = letters.slice(2);
        set(flag, flag.kind === "bool" ? boolValue(value, `-${letter}`) : value);
        letters = "";
      } else if (flag.kind === "bool") {
        set(flag, "true");
        letters = letters.slice(1);
      } else if (letters.length > 1) {
        set(flag, letters.slice(1));
        letters = "";
      } else if (i + 1 < args.length) {
        set(flag, args[++i] as string);
        letters = "";
      } else {
        throw new Refusal(`\`-${letter}\` needs a value.`);
      }
      if (flag.name === "help" && values.get("help")?.at(-1) === "true") return help();
    }
  }
  return { args: positionals, flags: values, help: false };
}

/** Parses one `gh` argument vector (without `gh` itself). */
export function parseGhArgv(argv: readonly string[]): GhParse {
  try {
    const { chain, rest } = findCommand(argv);
    const path = chain.slice(1).map((command) => command.name);
    const leaf = chain.at(-1) as GhCommand;
    const parsed = parseFlags(rest, flagsOf(chain), path.join(" "));
    if (!parsed.help && leaf.args !== undefined) {
      const count = parsed.args.length;
      if (count < leaf.args.min || count > leaf.args.max) {
        const wanted =
          leaf.args.min === leaf.args.max
            ? String(leaf.args.min)
            : leaf.args.max === Number.POSITIVE_INFINITY
              ? `at least ${leaf.args.min}`
              : `${leaf.args.min} to ${leaf.args.max}`;
        return {
          ok: false,
          reason: `\`gh ${path.join(" ")}\` takes ${wanted} argument${wanted === "1" ? "" : "s"}, not ${count} (${parsed.args.map((arg) => JSON.stringify(arg)).join(" ") || "none"}).`,
        };
      }
    }
    return { ok: true, parsed: { path, ...parsed } };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}
