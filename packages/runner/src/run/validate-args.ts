import {
  type AgentDefinition,
  fail,
  type JsonValue,
  ok,
  ownEntry,
  type Problem,
  type Result,
  setEntry,
} from "@climpt/model";
import { RUNNER_CODES } from "../codes.ts";

/**
 * Checks run arguments against the agent's parameter declarations (channel 1): every required
 * parameter present, every value of its declared type (numbers and booleans given as text, as a
 * CLI gives them, are converted), defaults applied. Unknown names are refused with the declared
 * ones listed: a misspelt parameter would otherwise surface later as a missing UV variable.
 */
export function validateArgs(
  agent: AgentDefinition,
  args: Readonly<Record<string, JsonValue>>,
): Result<Record<string, JsonValue>> {
  const problems: Problem[] = [];
  // A plain object (the journal stores it), set through setEntry: a parameter may be named
  // `__proto__`, and only declared parameters are looked up, never Object.prototype's members.
  const values: Record<string, JsonValue> = {};
  const declared = agent.parameters;
  const names = Object.keys(declared);
  for (const [name, raw] of Object.entries(args)) {
    const parameter = ownEntry(declared, name);
    if (parameter === undefined) {
      problems.push({
        code: RUNNER_CODES.unknownArgument,
        severity: "error",
        message: `Agent "${agent.name}" has no parameter "${name}".`,
        path: `$.parameters`,
        hint:
          names.length === 0
            ? "This agent declares no parameters; remove the argument."
            : `Declared parameters: ${names.map((n) => `${n} (${declared[n]?.cli})`).join(", ")}.`,
      });
      continue;
    }
    const converted = convert(parameter.type, raw);
    if (converted === undefined) {
      problems.push({
        code: RUNNER_CODES.badArgumentType,
        severity: "error",
        message: `Parameter "${name}" (${parameter.cli}) must be a ${parameter.type}; got ${JSON.stringify(raw)}.`,
        path: `$.parameters.${name}.type`,
        hint: `Pass ${parameter.cli} ${parameter.type === "number" ? "123" : parameter.type === "boolean" ? "true" : '"text"'}.`,
      });
      continue;
    }
    setEntry(values, name, converted);
  }
  for (const [name, parameter] of Object.entries(declared)) {
    if (Object.hasOwn(values, name) || Object.hasOwn(args, name)) continue;
    if (parameter.default !== undefined) {
      setEntry(values, name, parameter.default);
    } else if (parameter.required) {
      problems.push({
        code: RUNNER_CODES.missingArgument,
        severity: "error",
        message: `Agent "${agent.name}" needs parameter "${name}" (${parameter.cli})${parameter.description ? `: ${parameter.description}` : ""}.`,
        path: `$.parameters.${name}.required`,
        hint: `Pass ${parameter.cli} <${parameter.type}>.`,
      });
    }
  }
  return problems.length > 0 ? fail(problems) : ok(values);
}

function convert(type: "string" | "number" | "boolean", raw: JsonValue): JsonValue | undefined {
  switch (type) {
    case "string":
      return typeof raw === "string"
        ? raw
        : typeof raw === "number" || typeof raw === "boolean"
          ? String(raw)
          : undefined;
    case "number": {
      if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
      if (typeof raw === "string" && raw.trim() !== "" && Number.isFinite(Number(raw)))
        return Number(raw);
      return undefined;
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true") return true;
      if (raw === "false") return false;
      return undefined;
  }
}
