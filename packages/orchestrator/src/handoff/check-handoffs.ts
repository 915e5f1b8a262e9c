import path from "node:path";
import { jsonPath } from "@climpt/model";
import { ORCHESTRATOR_CODES as C } from "../codes.ts";
import type { HandoffDeclaration, Workflow } from "../workflow-model.ts";
import { didYouMean, type ProblemList } from "../workflow-problems.ts";
import { parseExpression } from "./payload-expressions.ts";

const TEMPLATE_KEY = /\$\{payload\.([A-Za-z0-9_-]+)\}/g;

/** The outcomes a workflow agent's runs can end with, as handoffs and templates name them. */
export function agentOutcomes(workflow: Workflow, agentId: string): string[] | null {
  const agent = workflow.agents.find((candidate) => candidate.id === agentId);
  if (agent === undefined) return null;
  return agent.role === "validator"
    ? [...Object.keys(agent.outputPhases), "failed"]
    : ["success", "failed", ...Object.keys(agent.fallbackPhases)];
}

/** An artifact path must name a file inside the worktree: relative, no `..` segment. */
export function artifactPathProblem(file: string): string | null {
  if (path.isAbsolute(file) || /^[A-Za-z]:/.test(file)) return "it is an absolute path";
  if (file.split(/[\\/]/).includes("..")) return 'it has a ".." segment';
  return null;
}

function checkHandoff(
  problems: ProblemList,
  workflow: Workflow,
  handoff: HandoffDeclaration,
  at: string,
): void {
  const keys = handoff.payloadFrom.map(([key]) => key);
  for (const [key, expression] of handoff.payloadFrom) {
    const where = jsonPath(jsonPath(at, "payloadFrom"), key);
    const parsed = parseExpression(expression);
    if (!parsed.ok) {
      problems.error(
        C.handoffExpression,
        where,
        `payloadFrom "${key}" is ${JSON.stringify(expression)}, which cannot be evaluated: ${parsed.why}.`,
        `Write "$.agent.result.<field>", "$.workflow.context.now", a 'quoted literal', or text with \${payload.<key>}.`,
      );
      continue;
    }
    if (parsed.value.kind === "template") {
      for (const name of parsed.value.keys) {
        if (!keys.includes(name) || name === key)
          problems.error(
            C.handoffExpression,
            where,
            `payloadFrom "${key}" uses \${payload.${name}}, which is not another key of payloadFrom.${didYouMean(name, keys)}`,
            "Name a key of this handoff's payloadFrom.",
          );
      }
    }
  }
  for (const match of handoff.emit.path.matchAll(TEMPLATE_KEY)) {
    const name = match[1] as string;
    if (!keys.includes(name))
      problems.error(
        C.handoffExpression,
        jsonPath(jsonPath(at, "emit"), "path"),
        `emit.path uses \${payload.${name}}, which is not a key of payloadFrom.${didYouMean(name, keys)}`,
        "Name a key of this handoff's payloadFrom.",
      );
  }
  const escapes = artifactPathProblem(handoff.emit.path);
  if (escapes !== null)
    problems.error(
      C.handoffExpression,
      jsonPath(jsonPath(at, "emit"), "path"),
      `emit.path ${JSON.stringify(handoff.emit.path)} cannot be used: ${escapes}. The artifact is written inside the issue's worktree, where the next agents run.`,
      `Write a relative path such as "tmp/climpt/orchestrator/emits/\${payload.prNumber}.json".`,
    );
  const outcomes = agentOutcomes(workflow, handoff.when.fromAgent);
  if (outcomes === null) {
    problems.warning(
      C.handoffNeverFires,
      jsonPath(jsonPath(at, "when"), "fromAgent"),
      `Handoff "${handoff.id}" waits for agent "${handoff.when.fromAgent}", which agents does not declare, so no run of this workflow fires it; an issue's payload then comes only from \`climpt orchestrate --issue N --payload …\`.`,
      "Declare the agent in this workflow, or keep the entry for the original runtime.",
    );
  } else if (!outcomes.includes(handoff.when.outcome)) {
    problems.warning(
      C.handoffNeverFires,
      jsonPath(jsonPath(at, "when"), "outcome"),
      `Handoff "${handoff.id}" waits for outcome "${handoff.when.outcome}", which agent "${handoff.when.fromAgent}" never ends with (${outcomes.join(", ")}).${didYouMean(handoff.when.outcome, outcomes)}`,
      "Name one of the agent's outcomes.",
    );
  }
}

/** The references and expressions of `handoffs`. */
export function checkHandoffs(problems: ProblemList, workflow: Workflow): void {
  for (const handoff of workflow.handoffs) checkHandoff(problems, workflow, handoff, handoff.at);
}
