import type { Problem } from "@climpt/model";
import { closestMatch } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import { type FlagSpec, type FlagValue, flagUsage } from "./flag-spec.ts";
import { convertFlagValue } from "./flag-values.ts";

/** A flag no spec declares, kept by the lenient first pass of `climpt run`. */
export interface UnknownFlag {
  /** Without dashes. */
  readonly name: string;
  readonly inlineValue?: string;
  /** Index in argv of the flag token. */
  readonly index: number;
  /** The token after it, when that token may be its value (`--issue 5`). */
  readonly maybeValueIndex?: number;
}

export interface ParsedFlags {
  /** By `FlagSpec.key`; repeatable flags hold an array. */
  readonly values: ReadonlyMap<string, FlagValue | readonly FlagValue[]>;
  /** Flag names (no dashes) as given, in order, for conflict checks. */
  readonly given: readonly string[];
  /** Arguments that are not flags, in order. */
  readonly positionals: readonly string[];
  /** Tokens after an unknown flag that might be its value (lenient mode only), by argv index. */
  readonly ambiguous: ReadonlyMap<number, string>;
  /** argv index of every positional, parallel to `positionals`. */
  readonly positionalIndexes: readonly number[];
  readonly unknown: readonly UnknownFlag[];
  readonly problems: readonly Problem[];
  /** `-h` / `--help` seen (a help request wins over every other problem). */
  readonly help: boolean;
}

export interface ParseFlagsOptions {
  /**
   * Collect unknown flags instead of reporting them: `climpt run` parses its own flags first,
   * loads the agent, then parses again with the agent's parameter flags.
   */
  readonly lenient?: boolean;
}

const NEGATIVE_NUMBER = /^-\d/;

function usageProblem(code: string, message: string, hint?: string): Problem {
  return hint === undefined
    ? { code, severity: "error", message }
    : { code, severity: "error", message, hint };
}

/**
 * Parses argv against `specs`: `--name value`, `--name=value`, `--flag`, `--no-flag` (negatable
 * booleans), `-h`, and `--` (everything after it is positional). Collects every problem instead
 * of stopping at the first, and suggests the closest flag for an unknown one.
 */
export function parseFlags(
  argv: readonly string[],
  specs: readonly FlagSpec[],
  options: ParseFlagsOptions = {},
): ParsedFlags {
  const byName = new Map<string, FlagSpec>();
  const byShort = new Map<string, FlagSpec>();
  for (const spec of specs) {
    // The first spec of a name wins: command flags are listed before agent parameter flags.
    if (!byName.has(spec.name)) byName.set(spec.name, spec);
    if (spec.short !== undefined && !byShort.has(spec.short)) byShort.set(spec.short, spec);
  }
  const values = new Map<string, FlagValue | FlagValue[]>();
  const seenKeys = new Map<string, string>();
  const given: string[] = [];
  const positionals: string[] = [];
  const positionalIndexes: number[] = [];
  const ambiguous = new Map<number, string>();
  const unknown: UnknownFlag[] = [];
  const problems: Problem[] = [];
  let help = false;
  let rest = false;

  const store = (spec: FlagSpec, value: FlagValue, typed: string) => {
    given.push(spec.name);
    if (spec.repeatable) {
      const list = values.get(spec.key);
      if (Array.isArray(list)) list.push(value);
      else values.set(spec.key, [value]);
      return;
    }
    const earlier = seenKeys.get(spec.key);
    if (earlier !== undefined) {
      problems.push(
        usageProblem(
          CLI_CODES.repeatedFlag,
          earlier === typed
            ? `${typed} is given more than once.`
            : `${typed} and ${earlier} set the same thing.`,
          `Give ${flagUsage(spec)} once.`,
        ),
      );
      return;
    }
    seenKeys.set(spec.key, typed);
    values.set(spec.key, value);
  };

  const suggestionFor = (name: string): string => {
    const names: string[] = [];
    for (const spec of specs) {
      if (spec.hidden) continue;
      names.push(spec.name);
      if (spec.kind === "boolean" && spec.negatable) names.push(`no-${spec.name}`);
    }
    const closest = closestMatch(name, names);
    return closest === undefined ? "" : `--${closest}`;
  };

  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (rest) {
      positionals.push(token);
      positionalIndexes.push(index);
      continue;
    }
    if (token === "--") {
      rest = true;
      continue;
    }
    if (token.startsWith("--") && token.length > 2) {
      const body = token.slice(2);
      const equals = body.indexOf("=");
      const name = equals === -1 ? body : body.slice(0, equals);
      const inlineValue = equals === -1 ? undefined : body.slice(equals + 1);
      let spec = byName.get(name);
      let negated = false;
      if (spec === undefined && name.startsWith("no-")) {
        const positive = byName.get(name.slice(3));
        if (positive?.kind === "boolean" && positive.negatable) {
          spec = positive;
          negated = true;
        }
      }
      if (spec === undefined) {
        if (name === "help") {
          help = true;
          continue;
        }
        const next = argv[index + 1];
        const nextMayBeValue =
          inlineValue === undefined && next !== undefined && !next.startsWith("-");
        if (options.lenient) {
          unknown.push({
            name,
            index,
            ...(inlineValue === undefined ? {} : { inlineValue }),
            ...(nextMayBeValue ? { maybeValueIndex: index + 1 } : {}),
          });
          if (nextMayBeValue) {
            ambiguous.set(index + 1, next as string);
            index++;
          }
          continue;
        }
        const suggestion = suggestionFor(name);
        problems.push(
          usageProblem(
            CLI_CODES.unknownFlag,
            `Unknown flag --${name}.`,
            suggestion === ""
              ? "Run the command with --help to see its flags."
              : `Did you mean ${suggestion}? Run the command with --help to see its flags.`,
          ),
        );
        // Skip what is most likely its value, so one typo gives one message.
        if (nextMayBeValue) index++;
        continue;
      }
      if (spec.kind === "boolean") {
        if (negated) {
          if (inlineValue !== undefined) {
            problems.push(
              usageProblem(
                CLI_CODES.badValue,
                `--no-${spec.name} takes no value.`,
                `Write --no-${spec.name} or --${spec.name}=${inlineValue}.`,
              ),
            );
            continue;
          }
          store(spec, false, `--no-${spec.name}`);
          continue;
        }
        if (inlineValue === undefined) {
          store(spec, true, `--${spec.name}`);
          continue;
        }
        const converted = convertFlagValue(spec, inlineValue);
        if (converted.ok) store(spec, converted.value, `--${spec.name}`);
        else
          problems.push(
            usageProblem(
              CLI_CODES.badValue,
              `--${spec.name} expects ${converted.expected}, got "${inlineValue}".`,
              converted.hint,
            ),
          );
        continue;
      }
      let text = inlineValue;
      if (text === undefined) {
        const next = argv[index + 1];
        if (
          next !== undefined &&
          (!next.startsWith("-") || next === "-" || NEGATIVE_NUMBER.test(next))
        ) {
          text = next;
          index++;
        }
      }
      if (text === undefined) {
        problems.push(
          usageProblem(
            CLI_CODES.missingValue,
            `--${spec.name} needs a value.`,
            `Write ${flagUsage(spec)} (or --${spec.name}=VALUE when the value starts with "-").`,
          ),
        );
        continue;
      }
      const converted = convertFlagValue(spec, text);
      if (converted.ok) store(spec, converted.value, `--${spec.name}`);
      else
        problems.push(
          usageProblem(
            CLI_CODES.badValue,
            `--${spec.name} expects ${converted.expected}, got "${text}".`,
            converted.hint,
          ),
        );
      continue;
    }
    if (token.startsWith("-") && token.length > 1 && !NEGATIVE_NUMBER.test(token)) {
      const letter = token.slice(1);
      const spec = letter.length === 1 ? byShort.get(letter) : undefined;
      if (letter === "h" && spec === undefined) {
        help = true;
        continue;
      }
      if (spec?.kind === "boolean") {
        store(spec, true, token);
        continue;
      }
      if (options.lenient) {
        unknown.push({ name: letter, index });
        continue;
      }
      const suggestion = suggestionFor(letter);
      problems.push(
        usageProblem(
          CLI_CODES.unknownFlag,
          `Unknown flag ${token}.`,
          suggestion === ""
            ? "Flags are written with two dashes (--name); run the command with --help to see them."
            : `Did you mean ${suggestion}?`,
        ),
      );
      continue;
    }
    positionals.push(token);
    positionalIndexes.push(index);
  }
  if (values.get("help") === true) help = true;
  return { values, given, positionals, positionalIndexes, ambiguous, unknown, problems, help };
}
