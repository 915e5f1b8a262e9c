/** How a flag's value is read. */
export type FlagKind = "boolean" | "string" | "number" | "integer" | "duration" | "choice";

/** One flag a command (or an agent parameter) accepts. */
export interface FlagSpec {
  /** Without dashes: `max-iterations`. */
  readonly name: string;
  readonly kind: FlagKind;
  /** Where the parsed value is stored; commands read `values.get(key)`. */
  readonly key: string;
  /** One line for `--help`. */
  readonly description: string;
  /** Placeholder in help and messages: `N`, `DIR`, `USD`. */
  readonly valueName?: string;
  /** A one-letter alias: `h` for `-h`. */
  readonly short?: string;
  /** May be given more than once; values are collected in order. */
  readonly repeatable?: boolean;
  /** A boolean that also has a `--no-<name>` form. */
  readonly negatable?: boolean;
  /** Allowed values of a `choice` flag. */
  readonly choices?: readonly string[];
  /** Smallest allowed value of a number / integer / duration (duration in milliseconds). */
  readonly min?: number;
  /** A number that must be greater than 0. */
  readonly positive?: boolean;
  /** Where the flag comes from, for help and messages. */
  readonly origin?: "command" | "parameter";
  /** Left out of the help text. */
  readonly hidden?: boolean;
}

export type FlagValue = string | number | boolean;

/** `--flag` as the user would type it. */
export function flagLabel(spec: Pick<FlagSpec, "name">): string {
  return `--${spec.name}`;
}

/** `--max-iterations N`, `--json`, `--[no-]worktree`, `--format mermaid|dot`. */
export function flagUsage(spec: FlagSpec): string {
  if (spec.kind === "boolean") return spec.negatable ? `--[no-]${spec.name}` : `--${spec.name}`;
  const value =
    spec.kind === "choice" && spec.choices ? spec.choices.join("|") : (spec.valueName ?? "VALUE");
  return `--${spec.name} ${value}`;
}
