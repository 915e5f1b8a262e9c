import type { FlagSpec } from "../args/flag-spec.ts";

export const HELP_FLAG: FlagSpec = {
  name: "help",
  short: "h",
  kind: "boolean",
  key: "help",
  description: "Show this help.",
};

export const JSON_FLAG: FlagSpec = {
  name: "json",
  kind: "boolean",
  key: "json",
  description: "Print exactly one JSON object on stdout; everything for people goes to stderr.",
};

export const AGENT_DIR_FLAG: FlagSpec = {
  name: "agent-dir",
  kind: "string",
  key: "agentDir",
  valueName: "DIR",
  description:
    "Folder holding the agent folders (default: the nearest .agent/ from <cwd> up to the repository's root).",
};

export const CWD_FLAG: FlagSpec = {
  name: "cwd",
  kind: "string",
  key: "cwd",
  valueName: "DIR",
  description: "The working directory (default: the current directory).",
};
