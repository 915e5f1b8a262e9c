import type { AgentParameter, JsonValue, Problem } from "@climpt/model";
import { ownEntry, setEntry } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { FlagKind, FlagSpec, FlagValue } from "./flag-spec.ts";

/** Prefix of the `FlagSpec.key` of an agent parameter flag: `param:issue`. */
export const PARAMETER_KEY_PREFIX = "param:";

/** A number parameter's flag is read as text: `validateArgs` converts and checks it. */
const KIND_OF: Readonly<Record<AgentParameter["type"], FlagKind>> = {
  string: "string",
  number: "string",
  boolean: "boolean",
};

function flagName(parameter: AgentParameter): string {
  return parameter.cli.replace(/^-+/, "");
}

function describe(parameter: AgentParameter): string {
  const parts = [parameter.description ?? `agent parameter "${parameter.name}"`];
  if (parameter.required && parameter.default === undefined) parts.push("(required)");
  if (parameter.default !== undefined)
    parts.push(`(default: ${JSON.stringify(parameter.default)})`);
  return parts.join(" ");
}

/**
 * One flag per declared agent parameter: `--issue N` for a number, `--[no-]draft` for a boolean,
 * `--task VALUE` for a string. A number flag is read as text: its value is checked, with every
 * other argument, by the runner's `validateArgs` (one check, one set of codes: `RUN-ARGS-*`).
 */
export function parameterFlagSpecs(
  parameters: Readonly<Record<string, AgentParameter>>,
): FlagSpec[] {
  return Object.values(parameters).map((parameter) => ({
    name: flagName(parameter),
    kind: KIND_OF[parameter.type],
    key: `${PARAMETER_KEY_PREFIX}${parameter.name}`,
    description: describe(parameter),
    valueName: parameter.type === "number" ? "N" : "VALUE",
    negatable: parameter.type === "boolean",
    origin: "parameter" as const,
  }));
}

/**
 * The agent arguments (channel 1) from the parameter flags and `--param k=v` entries, keyed by
 * parameter name (a `--param` entry may use the flag's name). Only the command line's own
 * syntax is checked here (`--param` without `=`, a parameter given twice); names, types and
 * required parameters are the runner's `validateArgs`' to check, which the commands call next:
 * values stay as typed (text), an undeclared name is passed on for it to refuse. Every problem
 * is reported.
 */
export function collectAgentArgs(
  values: ReadonlyMap<string, FlagValue | readonly FlagValue[]>,
  paramEntries: readonly string[],
  parameters: Readonly<Record<string, AgentParameter>>,
): { readonly args: Record<string, JsonValue>; readonly problems: Problem[] } {
  const args: Record<string, JsonValue> = {};
  const problems: Problem[] = [];
  const declared = Object.values(parameters);

  for (const parameter of declared) {
    const value = values.get(`${PARAMETER_KEY_PREFIX}${parameter.name}`);
    // setEntry and Object.hasOwn: a parameter may be named `__proto__` or `toString`.
    if (value !== undefined && !Array.isArray(value)) {
      setEntry(args, parameter.name, value as FlagValue);
    }
  }

  for (const entry of paramEntries) {
    const equals = entry.indexOf("=");
    if (equals <= 0) {
      problems.push({
        code: CLI_CODES.badParam,
        severity: "error",
        message: `--param expects NAME=VALUE, got "${entry}".`,
        hint: "Write --param issue=123 (the parameter's name, an equals sign, its value).",
      });
      continue;
    }
    const bare = entry.slice(0, equals).trim().replace(/^-+/, "");
    const text = entry.slice(equals + 1);
    const name =
      ownEntry(parameters, bare)?.name ??
      declared.find((candidate) => flagName(candidate) === bare)?.name ??
      bare;
    if (Object.hasOwn(args, name)) {
      const cli = ownEntry(parameters, name)?.cli ?? `--param ${name}`;
      problems.push({
        code: CLI_CODES.repeatedFlag,
        severity: "error",
        message: `Parameter "${name}" is given more than once (${cli} and --param).`,
        hint: `Give ${cli} once, either as a flag or as --param ${name}=VALUE.`,
      });
      continue;
    }
    setEntry(args, name, text);
  }
  return { args, problems };
}

/**
 * The checked (converted) values of the arguments the user gave, the defaults `validateArgs`
 * filled in left out: the journal records what the user actually passed.
 */
export function passedArgs(
  checked: Readonly<Record<string, JsonValue>>,
  given: Readonly<Record<string, JsonValue>>,
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const name of Object.keys(given)) {
    const value = ownEntry(checked, name);
    if (value !== undefined) setEntry(out, name, value);
  }
  return out;
}
