import { type AgentParameter, isPlainObject, jsonPath, ownRecord, setEntry } from "@climpt/model";
import { parameterSchema } from "./agent-file-schema.ts";
import { CLI_FLAG_PATTERN, cliFlagFor } from "./cli-flag.ts";
import {
  describeValue,
  type Findings,
  readObject,
  report,
  reportNotObject,
} from "./field-reader.ts";

/** agent.json `parameters`: each declaration read, its default type-checked, its CLI flag unique. */
export function readParameters(raw: unknown, findings: Findings): Record<string, AgentParameter> {
  const parameters = ownRecord<AgentParameter>();
  if (raw === undefined) return parameters;
  if (!isPlainObject(raw)) {
    reportNotObject(findings, raw, "$.parameters");
    return parameters;
  }
  const flags = new Map<string, string>();
  let issueParameter: string | undefined;
  for (const [name, declaration] of Object.entries(raw)) {
    const at = jsonPath("$.parameters", name);
    const fields = readObject(parameterSchema.entries, declaration, at, findings, {
      codes: {
        type: "AC-PARAM-001",
        default: "AC-PARAM-002",
        cli: "AC-PARAM-004",
        role: "AC-PARAM-005",
      },
    });
    if (fields === undefined) continue;
    const type = fields.type ?? "string";
    if (fields.default !== undefined && typeof fields.default !== type) {
      report(
        findings,
        "AC-PARAM-002",
        `${at}.default`,
        `Parameter "${name}" is a ${type} but its default ${describeValue(fields.default)} is a ${typeof fields.default}.`,
        `Write a ${type} default (e.g. ${type === "number" ? "1" : type === "boolean" ? "false" : '"text"'}) or change "type".`,
      );
    }
    const cli = fields.cli ?? cliFlagFor(name);
    if (!CLI_FLAG_PATTERN.test(cli)) {
      report(
        findings,
        "AC-PARAM-004",
        `${at}.cli`,
        `Parameter "${name}" has CLI flag "${cli}", which is not "--" followed by lowercase kebab case.`,
        `Declare "cli": "${cliFlagFor(name.replace(/[^A-Za-z0-9_]+/g, "-")) || "--name"}" (letters, digits and dashes).`,
      );
    }
    const owner = flags.get(cli);
    if (owner !== undefined) {
      report(
        findings,
        "AC-PARAM-003",
        `${at}.cli`,
        `Parameters "${owner}" and "${name}" both use the CLI flag ${cli}.`,
        `Give "${name}" its own flag, e.g. "cli": "${cliFlagFor(name) === cli ? `${cli}-2` : cliFlagFor(name)}", or remove one parameter.`,
      );
    } else {
      flags.set(cli, name);
    }
    let role = fields.role;
    if (role === "issue") {
      const problem =
        type === "boolean"
          ? `Parameter "${name}" has role "issue" but is a boolean; an issue is a number.`
          : issueParameter !== undefined
            ? `Parameters "${issueParameter}" and "${name}" both have role "issue"; a run has one issue.`
            : undefined;
      if (problem !== undefined) {
        report(
          findings,
          "AC-PARAM-005",
          `${at}.role`,
          problem,
          type === "boolean"
            ? 'Declare "type": "number" (or "string"), or remove "role".'
            : `Keep "role": "issue" on one parameter only.`,
        );
        role = undefined;
      } else {
        issueParameter = name;
      }
    }
    setEntry(parameters, name, {
      name,
      type,
      ...(fields.description === undefined ? {} : { description: fields.description }),
      required: fields.required ?? false,
      ...(fields.default === undefined || typeof fields.default !== type
        ? {}
        : { default: fields.default }),
      cli,
      ...(role === undefined ? {} : { role }),
    });
  }
  return parameters;
}
