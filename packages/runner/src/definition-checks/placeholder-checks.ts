/**
 * Placeholders a prompt uses that no channel will fill, found before any model call. The run
 * itself would stop at PR-RESOLVE-005 only when it reaches that prompt (after paying for the
 * steps before it); these checks report the same code for every prompt at once.
 */
import {
  declaredUvName,
  findUvPlaceholders,
  type Problem,
  problem,
  type Step,
  stepPath,
} from "@climpt/model";
import type { UvSupply, UvSupplyTable } from "./uv-supply.ts";

/** One prompt a run can send, and where it is. */
export interface PromptText {
  readonly text: string;
  /** What it is, for messages: `prompt of step "initial.issue"`, `retry prompt "git-dirty" …`. */
  readonly what: string;
  /** The file (absolute), or the registry file for a built-in template. */
  readonly file: string | undefined;
  /** The line of the file the text starts at (after frontmatter). */
  readonly firstLine: number;
  /** The step whose channels fill it (for a retry prompt, the closure step). */
  readonly stepId: string;
}

export interface PlaceholderContext {
  readonly table: UvSupplyTable;
  /** Whether a run from this run's entry can send prompts of the step. */
  readonly reachable: (stepId: string) => boolean;
  readonly entryStepId: string | undefined;
}

function linesLabel(lines: readonly number[]): string {
  return lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`;
}

function unreachableNote(context: PlaceholderContext, stepId: string): string {
  return context.entryStepId === undefined
    ? ""
    : ` Step "${stepId}" is not reachable from the entry step "${context.entryStepId}", so no run sends it as it stands; this becomes an error once a run can reach it.`;
}

/** PR-RESOLVE-005 for each placeholder of `prompt` that a run would find without a value. */
export function placeholderProblems(prompt: PromptText, context: PlaceholderContext): Problem[] {
  const lines = new Map<string, number[]>();
  for (const placeholder of findUvPlaceholders(prompt.text)) {
    const list = lines.get(placeholder.name) ?? [];
    const line = placeholder.line + prompt.firstLine - 1;
    if (!list.includes(line)) list.push(line);
    lines.set(placeholder.name, list);
  }
  const reachable = context.reachable(prompt.stepId);
  const problems: Problem[] = [];
  for (const [name, at] of lines) {
    const supply = context.table.supply(name);
    if (supply?.kind === "always" || supply?.kind === "handoff") continue;
    // `<step>_<key>` reads a step's handoff: flow analysis (SR-FLOW-006/007) judges those.
    if (supply === undefined && context.table.readsHandoff(name)) continue;
    const issue = placeholderProblem(prompt, name, supply, context, reachable);
    problems.push({
      ...issue,
      ...(prompt.file === undefined ? {} : { file: prompt.file }),
      path: linesLabel(at),
    });
  }
  return problems;
}

function placeholderProblem(
  prompt: PromptText,
  name: string,
  supply: Exclude<UvSupply, { kind: "always" } | { kind: "handoff" }> | undefined,
  context: PlaceholderContext,
  reachable: boolean,
): Problem {
  const uses = `The ${prompt.what} uses {uv-${name}}`;
  const note = reachable ? "" : unreachableNote(context, prompt.stepId);
  if (supply?.kind === "maybe") {
    return problem("PR-RESOLVE-005", `${uses}, but ${supply.reason}.`, {
      severity: "warning",
      hint: "Give the parameter a default in agent.json or make it required, so every run has a value.",
    });
  }
  if (supply?.kind === "never") {
    return problem("PR-RESOLVE-005", `${uses}, but ${supply.reason}.${note}`, {
      severity: reachable ? "error" : "warning",
      hint: supply.fix,
    });
  }
  const suggestion = context.table.suggestion(name);
  const fix = `declare a parameter "${name}" in agent.json, or hand the value off from an earlier step (uv-<step id with . as _>_<key>).`;
  const hint = suggestion === undefined ? `Fix the name, ${fix}` : `${suggestion} Otherwise ${fix}`;
  if (context.table.openEnded) {
    return problem(
      "PR-RESOLVE-005",
      `${uses}, which no parameter, runtime variable or handoff value supplies; only the agent's custom verdict (meta:custom) could.${note}`,
      { severity: "warning", hint },
    );
  }
  return problem(
    "PR-RESOLVE-005",
    `${uses}, which no parameter, runtime variable or handoff value supplies.${note}`,
    { severity: reachable ? "error" : "warning", hint },
  );
}

/**
 * PR-RESOLVE-003 for a step's declared `uvVariables` entry that this run leaves without a value:
 * a parameter the run was not given (error in a reachable step), or, checked without arguments,
 * an optional parameter without a default (warning). Names nothing supplies at all are the
 * loader's SR-VALID-006.
 */
export function declaredVariableProblems(
  step: Step,
  context: PlaceholderContext,
  registryFile: string | undefined,
): Problem[] {
  const reachable = context.reachable(step.id);
  const problems: Problem[] = [];
  step.uvVariables.forEach((entry, index) => {
    const name = declaredUvName(entry);
    if (name === "input_text" && step.usesStdin) return;
    const supply = context.table.supply(name);
    if (supply?.kind !== "maybe" && supply?.kind !== "never") return;
    const where = { file: registryFile, path: stepPath(step.id, "uvVariables", index) };
    const message = `Step "${step.id}" declares uvVariable "${name}", but ${supply.reason}.`;
    problems.push(
      supply.kind === "maybe"
        ? problem("PR-RESOLVE-003", message, {
            ...where,
            severity: "warning",
            hint: "Give the parameter a default in agent.json or make it required, so every run has a value.",
          })
        : problem(
            "PR-RESOLVE-003",
            `${message}${reachable ? "" : unreachableNote(context, step.id)}`,
            { ...where, severity: reachable ? "error" : "warning", hint: supply.fix },
          ),
    );
  });
  return problems;
}
