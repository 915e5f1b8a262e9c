import type { AgentParameter, JsonValue, Problem } from "@climpt/model";
import { closestMatch, ownEntry, setEntry } from "@climpt/model";
import { CLI_CODES } from "../cli-codes.ts";
import type { FlagKind, FlagSpec, FlagValue } from "./flag-spec.ts";
import { convertFlagValue } from "./flag-values.ts";

/** Prefix of the `FlagSpec.key` of an agent parameter flag: `param:issue`. */
export const PARAMETER_KEY_PREFIX = "param:";

const KIND_OF: Readonly<Record<AgentParameter["type"], FlagKind>> = {
  string: "string",
  number: "number",
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
 * One flag per declared agent parameter, typed by the declaration: `--issue N` for a number,
 * `--[no-]draft` for a boolean, `--task VALUE` for a string.
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

export interface CollectArgsOptions {
  /** `--resume`: the run keeps the parameters it started with, so none is required. */
  readonly skipRequired?: boolean;
}

/**
 * The agent arguments (channel 1) from the parameter flags and `--param k=v` entries, keyed by
 * parameter name and typed by the declaration. Defaults are not filled in: the runner applies
 * them, so the journal records what the user actually passed. Every problem is reported.
 */
export function collectAgentArgs(
  values: ReadonlyMap<string, FlagValue | readonly FlagValue[]>,
  paramEntries: readonly string[],
  parameters: Readonly<Record<string, AgentParameter>>,
  options: CollectArgsOptions = {},
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
    const rawName = entry.slice(0, equals).trim();
    const text = entry.slice(equals + 1);
    const bare = rawName.replace(/^-+/, "");
    const parameter =
      ownEntry(parameters, bare) ?? declared.find((candidate) => flagName(candidate) === bare);
    if (parameter === undefined) {
      const names = declared.map((candidate) => candidate.name);
      const closest = closestMatch(bare, names);
      problems.push({
        code: CLI_CODES.badParam,
        severity: "error",
        message: `--param ${rawName}: the agent declares no parameter "${bare}".`,
        hint:
          names.length === 0
            ? "This agent declares no parameters; remove the --param flag."
            : closest !== undefined
              ? `Did you mean --param ${closest}=${text}? Declared: ${names.join(", ")}.`
              : `Declared parameters: ${names.join(", ")}.`,
      });
      continue;
    }
    const converted = convertFlagValue(
      { name: flagName(parameter), kind: KIND_OF[parameter.type], key: "", description: "" },
      text,
    );
    if (!converted.ok) {
      problems.push({
        code: CLI_CODES.badValue,
        severity: "error",
        message: `--param ${parameter.name} expects ${converted.expected}, got "${text}".`,
        hint: `Write --param ${parameter.name}=${parameter.type === "boolean" ? "true" : parameter.type === "number" ? "1" : "VALUE"}.`,
      });
      continue;
    }
    if (Object.hasOwn(args, parameter.name)) {
      problems.push({
        code: CLI_CODES.repeatedFlag,
        severity: "error",
        message: `Parameter "${parameter.name}" is given more than once (${parameter.cli} and --param).`,
        hint: `Give ${parameter.cli} once, either as a flag or as --param ${parameter.name}=VALUE.`,
      });
      continue;
    }
    setEntry(args, parameter.name, converted.value);
  }

  if (!options.skipRequired) {
    for (const parameter of declared) {
      if (
        !parameter.required ||
        parameter.default !== undefined ||
        Object.hasOwn(args, parameter.name)
      )
        continue;
      const placeholder =
        parameter.type === "number" ? "N" : parameter.type === "boolean" ? "" : "VALUE";
      problems.push({
        code: CLI_CODES.missingParameter,
        severity: "error",
        message: `Missing required parameter ${parameter.cli} (${parameter.type})${parameter.description ? `: ${parameter.description}` : ""}.`,
        hint:
          parameter.type === "boolean"
            ? `Pass ${parameter.cli} or --no-${flagName(parameter)}.`
            : `Pass ${parameter.cli} ${placeholder} (or --param ${parameter.name}=${placeholder}).`,
      });
    }
  }
  return { args, problems };
}
