/** Builders shared by this package's tests (not exported from the package). */

import { existsSync, readFileSync } from "node:fs";
import type {
  AgentDefinition,
  JsonValue,
  LoadedAgent,
  Registry,
  Step,
  StepKind,
  StepPermissions,
  ToolResult,
} from "@climpt/model";
import { agentOf, registryOf, stepOf, useTempDirs as useTempDirsAfter } from "@climpt/testing";
import { afterEach } from "vitest";
import type { ToolboxNotice } from "./builtin-tool.ts";
import type { ToolEvent } from "./events.ts";
import { TOOL_NAMES } from "./tool-names.ts";
import { createToolbox, type Toolbox, type ToolboxOptions } from "./toolbox.ts";

export function agentDefinition(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return agentOf({
    shape: "flat",
    verdict: { type: "detect:graph", declaredType: "stepMachine", config: {} },
    permissionMode: "acceptEdits",
    github: { enabled: true, labels: {}, defaultClosureAction: "close" },
    ...overrides,
  });
}

export function step(id: string, kind: StepKind, permissions: StepPermissions = {}): Step {
  return stepOf(id, { kind, permissions });
}

export function loadedAgent(agent: AgentDefinition, steps: readonly Step[]): LoadedAgent {
  const registry: Registry = registryOf(steps);
  return {
    dir: "/agents/demo",
    agent,
    registry,
    files: { agent: "/agents/demo/agent.json", registry: "/agents/demo/steps_registry.json" },
  };
}

/** A fresh temporary directory (real path) per call, removed after the test. */
export function useTempDirs(): () => string {
  return useTempDirsAfter(afterEach, "climpt-tools-");
}

/** Whether a process is running (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.charAt(stat.lastIndexOf(")") + 2);
      return state !== "Z" && state !== "X";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A toolbox on `cwd` for a step of the given kind, everything allowed unless overridden. */
export function toolboxFor(
  cwd: string,
  options: Partial<Omit<ToolboxOptions, "cwd">> & {
    kind?: StepKind;
    permissions?: StepPermissions;
  } = {},
): Toolbox & {
  events: ToolEvent[];
  notices: ToolboxNotice[];
  call: (name: string, input: JsonValue) => Promise<ToolResult>;
} {
  const events: ToolEvent[] = [];
  const notices: ToolboxNotice[] = [];
  const { kind = "work", permissions = {}, ...rest } = options;
  const toolbox = createToolbox({
    cwd,
    // An agent that lists every tool, the GitHub ones included.
    agent: agentDefinition({ allowedTools: [...TOOL_NAMES] }),
    step: step(
      kind === "closure"
        ? "closure.issue"
        : kind === "verification"
          ? "verification.issue"
          : "initial.issue",
      kind,
      permissions,
    ),
    onEvent: (event) => events.push(event),
    onNotice: (notice) => notices.push(notice),
    ...rest,
  });
  let counter = 0;
  return Object.assign(toolbox, {
    events,
    notices,
    call: (name: string, input: JsonValue) =>
      toolbox.execute({ id: `call_${++counter}`, name, input }),
  });
}
