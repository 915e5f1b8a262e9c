/**
 * How a gh flag takes its value, as pflag declares them: `strings` is a StringSlice (split on
 * commas, repeatable), `array` a StringArray (repeatable, never split: `gh api -f a=b,c`).
 */
export type GhFlagKind = "string" | "strings" | "array" | "int" | "bool";

export interface GhFlagSpec {
  readonly kind: GhFlagKind;
  readonly short?: string;
}

export interface GhParsedArgs {
  readonly positionals: string[];
  /** Last value of a single flag; every value (comma-split for `strings`) of a repeated one. */
  readonly flags: Map<string, string | string[] | boolean>;
}

export class GhUsageError extends Error {}

/**
 * Parses one gh subcommand's arguments the way pflag does for the flags gh declares: `--name
 * value`, `--name=value`, `-s value`, `-svalue`, `-s=value`, grouped shorthands (`-iXPATCH` is
 * `-i -X PATCH` when `-i` is a boolean), booleans without a value, `strings` flags split on
 * commas and repeatable (`--add-label a,b --add-label c`), and `array` flags repeatable without
 * splitting. An undeclared flag is an error, as in gh (`unknown flag: --x`), so a caller using a
 * flag the fake does not model fails loudly.
 */
export function parseGhArgs(
  argv: readonly string[],
  specs: Readonly<Record<string, GhFlagSpec>>,
): GhParsedArgs {
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.short !== undefined) byShort.set(spec.short, name);
  }
  const positionals: string[] = [];
  const flags = new Map<string, string | string[] | boolean>();
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (token === "--") {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (token.startsWith("--")) {
      const equals = token.indexOf("=");
      name = equals === -1 ? token.slice(2) : token.slice(2, equals);
      inline = equals === -1 ? undefined : token.slice(equals + 1);
      if (specs[name] === undefined) throw new GhUsageError(`unknown flag: --${name}`);
    } else if (token.startsWith("-") && token.length > 1) {
      // pflag reads a shorthand group letter by letter: booleans take no value, so the next
      // letter is another flag; the first flag that takes a value takes the rest of the token.
      let at = 1;
      for (;;) {
        const letter = token.slice(at, at + 1);
        name = byShort.get(letter);
        if (name === undefined)
          throw new GhUsageError(`unknown shorthand flag: '${letter}' in ${token}`);
        const rest = token.slice(at + 1);
        if ((specs[name] as GhFlagSpec).kind !== "bool" || rest === "" || rest.startsWith("=")) {
          inline = rest === "" ? undefined : rest.replace(/^=/, "");
          break;
        }
        flags.set(name, true);
        at++;
      }
    } else {
      positionals.push(token);
      continue;
    }
    const spec = specs[name] as GhFlagSpec;
    if (spec.kind === "bool") {
      flags.set(name, inline === undefined ? true : inline !== "false");
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = argv[index + 1];
      if (value === undefined) throw new GhUsageError(`flag needs an argument: --${name}`);
      index++;
    }
    if (spec.kind === "int" && !/^-?\d+$/.test(value)) {
      throw new GhUsageError(`invalid argument "${value}" for "--${name}" flag: not an integer`);
    }
    if (spec.kind === "array") {
      const previous = flags.get(name);
      flags.set(name, [...(Array.isArray(previous) ? previous : []), value]);
    } else if (spec.kind === "strings") {
      const previous = flags.get(name);
      const list = Array.isArray(previous) ? previous : [];
      list.push(
        ...value
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part !== ""),
      );
      flags.set(name, list);
    } else {
      flags.set(name, value);
    }
  }
  return { positionals, flags };
}

export function stringFlag(args: GhParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === "string" ? value : undefined;
}

export function stringsFlag(args: GhParsedArgs, name: string): string[] {
  const value = args.flags.get(name);
  return Array.isArray(value) ? value : [];
}

export function boolFlag(args: GhParsedArgs, name: string): boolean {
  return args.flags.get(name) === true;
}

export function intFlag(args: GhParsedArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  return value === undefined ? undefined : Number(value);
}
