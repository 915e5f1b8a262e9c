/**
 * agent.json `runner.boundaries.mcpServers` (flat shape: `behavior.mcpServers`) → the definition's
 * `mcpServers`. The shape is Claude Code's `.mcp.json` `mcpServers` object, so a team can paste
 * theirs: stdio `{ command, args?, env? }` (`type: "stdio"` optional), http
 * `{ type: "http", url, headers? }`. Read here rather than by the field reader so each problem
 * names the server and the field, and so `env` and `headers` values (often tokens) are never
 * quoted back (docs/design.md#tools-and-their-boundary).
 */

import {
  type AgentSandbox,
  hostAllowed,
  jsonPath,
  type McpServerConfig,
  urlHostPort,
} from "@climpt/model";
import { describeValue, type Findings, report } from "./field-reader.ts";

/** The mcpServers setting as written, and the JSON path it was written at. */
export interface WrittenMcpServers {
  readonly value: unknown;
  readonly path: string;
}

export function writtenMcpServers(
  value: unknown,
  path: string,
): { mcpServers?: WrittenMcpServers } {
  return value === undefined ? {} : { mcpServers: { value, path } };
}

/**
 * A server name: letters, digits, `-` and single `_`. A double `__` is the separator of
 * `mcp__<server>__<tool>`, so a name holding one could not be read back from a tool name; the
 * Messages API allows only `[A-Za-z0-9_-]` in tool names.
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME = 40;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An http header name (an RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const SHAPE_HINT =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} as .mcp.json writes it, not a template.
  'Write each server as in Claude Code\'s .mcp.json: { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": { "NAME": "value" } } for a stdio server, or { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer ${MCP_TOKEN}" } }.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{ NAME: "value" }` → the record, or a problem for each entry that is not a string. */
function readStringMap(
  raw: unknown,
  at: string,
  findings: Findings,
  keyPattern: RegExp,
  what: string,
): Record<string, string> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) {
    report(
      findings,
      "AC-MCP-001",
      at,
      `${at} must be an object of ${what} names to string values, but is ${describeValue(raw)}.`,
      SHAPE_HINT,
    );
    return {};
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!keyPattern.test(key)) {
      report(
        findings,
        "AC-MCP-001",
        jsonPath(at, key),
        `${describeValue(key)} is not a ${what} name.`,
        SHAPE_HINT,
      );
      continue;
    }
    if (typeof value !== "string") {
      // The value may be a secret: only its type is said.
      report(
        findings,
        "AC-MCP-001",
        jsonPath(at, key),
        `${jsonPath(at, key)} must be a string, but is ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}.`,
        SHAPE_HINT,
      );
      continue;
    }
    out[key] = value;
  }
  return out;
}

function readServer(
  name: string,
  raw: unknown,
  at: string,
  findings: Findings,
  sandbox: AgentSandbox | undefined,
): McpServerConfig | undefined {
  if (!isPlainObject(raw)) {
    report(
      findings,
      "AC-MCP-001",
      at,
      `MCP server "${name}" must be an object, but is ${describeValue(raw)}.`,
      SHAPE_HINT,
    );
    return undefined;
  }
  const type = raw.type ?? (raw.url !== undefined ? "http" : "stdio");
  if (type === "stdio") {
    const command = raw.command;
    if (typeof command !== "string" || command.trim() === "") {
      report(
        findings,
        "AC-MCP-001",
        jsonPath(at, "command"),
        `MCP server "${name}" is a stdio server without a command (${jsonPath(at, "command")} is ${describeValue(command)}).`,
        SHAPE_HINT,
      );
      return undefined;
    }
    const args: string[] = [];
    if (raw.args !== undefined) {
      if (!Array.isArray(raw.args)) {
        report(
          findings,
          "AC-MCP-001",
          jsonPath(at, "args"),
          `${jsonPath(at, "args")} must be an array of strings, but is ${describeValue(raw.args)}.`,
          SHAPE_HINT,
        );
        return undefined;
      }
      for (const [index, arg] of raw.args.entries()) {
        if (typeof arg === "string") args.push(arg);
        else
          report(
            findings,
            "AC-MCP-001",
            jsonPath(jsonPath(at, "args"), index),
            `Argument ${index} of MCP server "${name}" must be a string, but is ${describeValue(arg)}.`,
            SHAPE_HINT,
          );
      }
    }
    const env = readStringMap(raw.env, jsonPath(at, "env"), findings, ENV_NAME, "variable");
    return { transport: "stdio", command, args, env };
  }
  if (type === "http") {
    const urlAt = jsonPath(at, "url");
    let url: URL | undefined;
    try {
      url = typeof raw.url === "string" ? new URL(raw.url) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) {
      report(
        findings,
        "AC-MCP-001",
        urlAt,
        `MCP server "${name}" is an http server whose url ${describeValue(raw.url)} is not an http(s) URL.`,
        SHAPE_HINT,
      );
      return undefined;
    }
    if (url.username !== "" || url.password !== "") {
      report(
        findings,
        "AC-MCP-001",
        urlAt,
        `The url of MCP server "${name}" holds a user or password; it is not repeated here.`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} as .mcp.json writes it, not a template.
        'Put credentials in a header taken from the environment: "headers": { "Authorization": "Bearer ${MCP_TOKEN}" }.',
      );
      return undefined;
    }
    const { host, port } = urlHostPort(url);
    if (!hostAllowed(sandbox?.networkAllow ?? [], host, port)) {
      report(
        findings,
        "AC-MCP-002",
        urlAt,
        `MCP server "${name}" is at ${host}:${port}, which runner.boundaries.sandbox.network.allow does not declare; climpt reaches http servers only at hosts the agent declares.`,
        `Add "${host}" (or "${host}:${port}") to runner.boundaries.sandbox.network.allow, which also lets Bash reach it.`,
      );
      return undefined;
    }
    const headers = readStringMap(
      raw.headers,
      jsonPath(at, "headers"),
      findings,
      HEADER_NAME,
      "header",
    );
    return { transport: "http", url: url.href, headers };
  }
  report(
    findings,
    "AC-MCP-001",
    jsonPath(at, "type"),
    `MCP server "${name}" has type ${describeValue(type)}; climpt runs "stdio" and "http" servers (sse, the older transport, is not supported).`,
    SHAPE_HINT,
  );
  return undefined;
}

/**
 * The normalized servers, as the `mcpServers` entry of the definition (nothing when the file
 * declares none). A bad entry is reported and left out, so a tool naming it is then reported as
 * naming an unknown server too.
 */
export function normalizeMcpServers(
  written: WrittenMcpServers | undefined,
  findings: Findings,
  sandbox: AgentSandbox | undefined,
): { mcpServers?: Readonly<Record<string, McpServerConfig>> } {
  if (written === undefined) return {};
  if (!isPlainObject(written.value)) {
    report(
      findings,
      "AC-MCP-001",
      written.path,
      `${written.path} must be an object of server names to servers, but is ${describeValue(written.value)}.`,
      SHAPE_HINT,
    );
    return {};
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(written.value)) {
    const at = jsonPath(written.path, name);
    if (!SERVER_NAME.test(name) || name.length > MAX_SERVER_NAME) {
      report(
        findings,
        "AC-MCP-001",
        at,
        `MCP server name ${describeValue(name)} is not usable in a tool name: use letters, digits, "-" and single "_" (at most ${MAX_SERVER_NAME} characters).`,
        'Rename it, e.g. "docs" or "issue-tracker"; its tools are then mcp__docs__<tool>.',
      );
      continue;
    }
    const server = readServer(name, raw, at, findings, sandbox);
    if (server !== undefined) servers[name] = server;
  }
  return Object.keys(servers).length === 0 ? {} : { mcpServers: servers };
}
