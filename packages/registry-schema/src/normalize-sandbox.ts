/**
 * agent.json `runner.boundaries.sandbox` (flat shape: `behavior.sandbox`) → `AgentSandbox`.
 * The shape (a mode string, or an object) is checked by the field reader with the valibot schema;
 * this checks what the schema cannot say — that each allowed host is a host, and each readable
 * path a path — so a typo is refused at `climpt validate` instead of becoming a command that
 * cannot reach the host it needs (docs/design.md#tools-and-their-boundary).
 */

import { type AgentSandbox, jsonPath } from "@climpt/model";
import type { RawSandbox } from "./agent-file-schema.ts";
import { describeValue, type Findings, report } from "./field-reader.ts";

/** The sandbox setting as written, and the JSON path it was written at. */
export interface WrittenSandbox {
  readonly value: RawSandbox;
  readonly path: string;
}

/** The sandbox section of a shape's sections, when the file has one. */
export function writtenSandbox(
  value: RawSandbox | undefined,
  path: string,
): { sandbox?: WrittenSandbox } {
  return value === undefined ? {} : { sandbox: { value, path } };
}

export const DEFAULT_AGENT_SANDBOX: AgentSandbox = {
  mode: "required",
  networkAllow: [],
  readable: [],
};

/**
 * A host entry: a DNS name or IP literal (`*.` wildcard prefix allowed), optionally `:port`;
 * IPv6 literals in brackets. No scheme, no path, no user.
 */
const HOST_ENTRY =
  /^(?:(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

function hostProblem(entry: string): string | undefined {
  if (entry.includes("://")) return "has a scheme";
  if (entry.includes("/")) return "has a path";
  if (entry.includes("@")) return "has a user";
  const match = HOST_ENTRY.exec(entry);
  if (match === null) return "is not a host name";
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) {
    return "has a port outside 1–65535";
  }
  return undefined;
}

/**
 * The normalized sandbox setting, as the `sandbox` entry of the definition; nothing when the file
 * has none (the default, `required` with no network, needs no entry). Problems go to `findings`;
 * bad entries are left out.
 */
export function normalizeSandbox(
  written: WrittenSandbox | undefined,
  findings: Findings,
): { sandbox?: AgentSandbox } {
  if (written === undefined) return {};
  return { sandbox: readSandbox(written, findings) };
}

function readSandbox(written: WrittenSandbox, findings: Findings): AgentSandbox {
  const raw = written.value;
  if (typeof raw === "string") return { ...DEFAULT_AGENT_SANDBOX, mode: raw };
  const allowPath = `${written.path}.network.allow`;
  const networkAllow: string[] = [];
  (raw.network?.allow ?? []).forEach((entry, index) => {
    const trouble = hostProblem(entry);
    if (trouble === undefined) {
      networkAllow.push(entry);
      return;
    }
    report(
      findings,
      "AC-SANDBOX-001",
      jsonPath(allowPath, index),
      `Allowed host ${describeValue(entry)} ${trouble}.`,
      'Write a host name, optionally with a port or a wildcard prefix: "registry.npmjs.org", "api.example.com:443", "*.githubusercontent.com".',
    );
  });
  const readablePath = `${written.path}.readable`;
  const readable: string[] = [];
  (raw.readable ?? []).forEach((entry, index) => {
    if (entry.startsWith("/") || entry.startsWith("~/")) {
      readable.push(entry);
      return;
    }
    report(
      findings,
      "AC-SANDBOX-002",
      jsonPath(readablePath, index),
      `Readable path ${describeValue(entry)} is neither absolute nor under "~/".`,
      'Write an absolute path or one starting with "~/" (the home directory), e.g. "~/.sdkman".',
    );
  });
  return { mode: raw.mode ?? "required", networkAllow, readable };
}
