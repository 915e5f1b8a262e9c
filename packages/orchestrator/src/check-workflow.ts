import { jsonPath } from "@climpt/model";
import { checkChecksPhases } from "./checks/read-phase-checks.ts";
import { ORCHESTRATOR_CODES as C } from "./codes.ts";
import { checkHandoffs } from "./handoff/check-handoffs.ts";
import { firstBlockingPhase, type Workflow, type WorkflowAgent } from "./workflow-model.ts";
import { didYouMean, type ProblemList } from "./workflow-problems.ts";

/** Every phase an agent's outcomes can lead to, the fallback included. */
export function agentTargets(workflow: Workflow, agent: WorkflowAgent): string[] {
  const targets =
    agent.role === "transformer"
      ? [agent.outputPhase, ...Object.values(agent.fallbackPhases)]
      : Object.values(agent.outputPhases);
  const fallback = agent.fallbackPhase ?? firstBlockingPhase(workflow)?.id;
  if (fallback !== undefined) targets.push(fallback);
  return targets.filter((target) => target !== "");
}

function checkPhases(problems: ProblemList, workflow: Workflow): void {
  const agentIds = workflow.agents.map((agent) => agent.id);
  for (const phase of workflow.phases) {
    const path = jsonPath("$.phases", phase.id);
    if (phase.type === "actionable") {
      if (phase.agent === null) {
        problems.error(
          C.phaseAgentRequired,
          path,
          `Actionable phase "${phase.id}" names no agent, so nothing can work on an issue in it.`,
          `Add "agent": "<agent id>" (one of ${agentIds.join(", ") || "the agents you declare"}).`,
        );
      } else if (!agentIds.includes(phase.agent)) {
        problems.error(
          C.refUnknownAgent,
          jsonPath(path, "agent"),
          `Phase "${phase.id}" names agent "${phase.agent}", which agents does not declare.${didYouMean(phase.agent, agentIds)}`,
          "Declare the agent under agents, or correct the name.",
        );
      }
      if (phase.priority === null) {
        problems.error(
          C.phasePriorityRequired,
          path,
          `Actionable phase "${phase.id}" has no priority.`,
          'Add "priority": <number>; lower runs first when an issue has labels of several actionable phases.',
        );
      }
    } else if (phase.agent !== null) {
      problems.warning(
        C.phaseAgentIgnored,
        jsonPath(path, "agent"),
        `Phase "${phase.id}" is ${phase.type}, so its agent "${phase.agent}" never runs.`,
        "Remove the agent, or make the phase actionable.",
      );
    }
    if (!workflow.labelMapping.some(([, target]) => target === phase.id)) {
      // A warning: the original runtime runs such a workflow (a transition there leaves the
      // issue without a phase label).
      problems.warning(
        C.phaseUnreachable,
        path,
        `No label maps to phase "${phase.id}": no person can put an issue there, and an issue a transition moves there is left without a phase label.`,
        `Map a label to it in labelMapping, e.g. "${phase.id}": "${phase.id}".`,
      );
    }
  }
  if (workflow.phases.length > 0 && firstBlockingPhase(workflow) === undefined) {
    problems.warning(
      C.phaseNoBlocking,
      "$.phases",
      "The workflow has no blocking phase: an issue stopped by a failure or a cycle rule keeps its phase label and gets only a comment.",
      'Add a phase with "type": "blocking" and a label for it.',
    );
  }
}

function checkLabelMapping(problems: ProblemList, workflow: Workflow): void {
  const phaseIds = workflow.phases.map((phase) => phase.id);
  const seen = new Map<string, string>();
  for (const [label, phase] of workflow.labelMapping) {
    const path = jsonPath("$.labelMapping", label);
    if (!phaseIds.includes(phase)) {
      problems.error(
        C.labelUnknownPhase,
        path,
        `Label "${label}" maps to phase "${phase}", which phases does not declare.${didYouMean(phase, phaseIds)}`,
        "Declare the phase, or map the label to an existing one.",
      );
    }
    const key = label.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      // The first mapping wins when the label is read (the original reads the same file).
      problems.warning(
        C.labelMappedTwice,
        path,
        `Label "${label}" is mapped twice: GitHub treats it and "${first}" as one label.`,
        "Keep one entry for the label.",
      );
    }
    seen.set(key, label);
  }
  for (const [index, label] of (workflow.prioritizer?.labels ?? []).entries()) {
    const first = seen.get(label.toLowerCase());
    if (first !== undefined) {
      problems.warning(
        C.labelMappedTwice,
        jsonPath("$.prioritizer.labels", index),
        `Label "${label}" is both a phase label (labelMapping "${first}") and an order label of the prioritizer.`,
        "Give the order labels names of their own, e.g. order:1.",
      );
    }
  }
}

function checkLabelSpecs(problems: ProblemList, workflow: Workflow): void {
  if (workflow.labels === null) return;
  const used = [
    ...workflow.labelMapping.map(([label]) => label),
    ...(workflow.prioritizer?.labels ?? []),
  ];
  const declared = Object.keys(workflow.labels);
  for (const label of used) {
    if (!declared.includes(label)) {
      problems.error(
        C.labelSpecMissing,
        "$.labels",
        `labels has no spec for "${label}", which the workflow uses; \`climpt labels sync\` would not know its colour.`,
        `Add "${label}": { "color": "<six hex digits>", "description": "…" } to labels.`,
      );
    }
  }
  for (const label of declared) {
    if (!used.includes(label)) {
      problems.error(
        C.labelSpecOrphan,
        jsonPath("$.labels", label),
        `labels declares "${label}", which neither labelMapping nor prioritizer.labels uses.${didYouMean(label, used)}`,
        "Remove the spec, or use the label.",
      );
    }
  }
}

function checkAgent(problems: ProblemList, workflow: Workflow, agent: WorkflowAgent): void {
  const phaseIds = workflow.phases.map((phase) => phase.id);
  const path = jsonPath("$.agents", agent.id);
  const unknown = (code: string, at: string, what: string, phase: string): void => {
    problems.error(
      code,
      at,
      `Agent "${agent.id}" ${what} "${phase}", which phases does not declare.${didYouMean(phase, phaseIds)}`,
      "Name a declared phase.",
    );
  };
  if (agent.role === "transformer") {
    if (agent.outputPhase === "") {
      problems.error(
        C.refOutcomeWithoutPhase,
        path,
        `Transformer "${agent.id}" has no outputPhase, so a successful run has no phase to go to.`,
        'Add "outputPhase": "<phase>".',
      );
    } else if (!phaseIds.includes(agent.outputPhase)) {
      unknown(
        C.refUnknownOutputPhase,
        jsonPath(path, "outputPhase"),
        "has outputPhase",
        agent.outputPhase,
      );
    }
    for (const [verdict, phase] of Object.entries(agent.fallbackPhases)) {
      // A warning: the original loads it; such an outcome takes the fallbackPhase instead.
      if (!phaseIds.includes(phase))
        problems.warning(
          C.refUnknownFallbackPhasesEntry,
          jsonPath(jsonPath(path, "fallbackPhases"), verdict),
          `Agent "${agent.id}" maps verdict "${verdict}" to "${phase}", which phases does not declare; that outcome takes the fallback phase instead.${didYouMean(phase, phaseIds)}`,
          "Name a declared phase.",
        );
    }
  } else {
    const outcomes = Object.entries(agent.outputPhases);
    if (outcomes.length === 0) {
      problems.error(
        C.refOutcomeWithoutPhase,
        path,
        `Validator "${agent.id}" has no outputPhases, so no verdict of its runs has a phase to go to.`,
        'Add "outputPhases": { "<verdict>": "<phase>", … }.',
      );
    }
    for (const [verdict, phase] of outcomes) {
      if (!phaseIds.includes(phase))
        unknown(
          C.refUnknownOutputPhasesEntry,
          jsonPath(jsonPath(path, "outputPhases"), verdict),
          `maps verdict "${verdict}" to`,
          phase,
        );
    }
  }
  if (agent.fallbackPhase !== null && !phaseIds.includes(agent.fallbackPhase)) {
    unknown(
      C.refUnknownFallbackPhase,
      jsonPath(path, "fallbackPhase"),
      "has fallbackPhase",
      agent.fallbackPhase,
    );
  }
  if (agent.fallbackPhase === null) {
    const blocking = firstBlockingPhase(workflow);
    if (blocking === undefined) {
      // A warning: the original loads it. A failed run then holds the issue in its phase with a
      // comment (ORC-STATE-004) until a person relabels it.
      problems.warning(
        C.refNoFallback,
        path,
        `Agent "${agent.id}" has no fallbackPhase and the workflow has no blocking phase: a failed run holds the issue in its phase until a person relabels it.`,
        'Add "fallbackPhase": "<phase>", or a blocking phase.',
      );
    } else {
      problems.warning(
        C.refNoFallback,
        path,
        `Agent "${agent.id}" has no fallbackPhase; its failed runs go to the blocking phase "${blocking.id}".`,
        `Add "fallbackPhase": "${blocking.id}" to say so.`,
      );
    }
  }
  if (agent.closeCondition !== null) {
    if (!agent.closeOnComplete) {
      problems.error(
        C.refCloseConditionWithoutClose,
        jsonPath(path, "closeCondition"),
        `Agent "${agent.id}" has closeCondition but closeOnComplete is not true, so it never closes anything.`,
        'Add "closeOnComplete": true, or remove closeCondition.',
      );
    }
    const outcomes =
      agent.role === "validator"
        ? Object.keys(agent.outputPhases)
        : ["success", ...Object.keys(agent.fallbackPhases)];
    if (!outcomes.includes(agent.closeCondition)) {
      // A validator's closeCondition must be one of its outcomes, as the original checks; a
      // transformer's is not checked there, so it is only a warning here.
      const report = agent.role === "validator" ? problems.error : problems.warning;
      report.call(
        problems,
        C.refInvalidCloseCondition,
        jsonPath(path, "closeCondition"),
        `Agent "${agent.id}" closeCondition "${agent.closeCondition}" is not one of its outcomes (${outcomes.join(", ")}).${didYouMean(agent.closeCondition, outcomes)}`,
        "Use one of the outcomes.",
      );
    }
  }
}

function checkAgents(problems: ProblemList, workflow: Workflow): void {
  for (const agent of workflow.agents) checkAgent(problems, workflow, agent);
  const agentIds = workflow.agents.map((agent) => agent.id);
  const prioritizer = workflow.prioritizer;
  // Only --prioritize runs the prioritizer, so an undeclared prioritizer agent is a warning
  // here and an error for a batch that asks for it (prioritizerProblem), as the original does.
  if (prioritizer !== null && prioritizer.agent !== "" && !agentIds.includes(prioritizer.agent)) {
    problems.warning(
      C.refUnknownPrioritizerAgent,
      "$.prioritizer.agent",
      `The prioritizer names agent "${prioritizer.agent}", which agents does not declare, so --prioritize cannot run it.${didYouMean(prioritizer.agent, agentIds)}`,
      "Declare the agent under agents (any role) to use --prioritize, or correct the name.",
    );
  }
  for (const agent of workflow.agents) {
    const used =
      workflow.phases.some((phase) => phase.agent === agent.id) || prioritizer?.agent === agent.id;
    if (!used) {
      problems.warning(
        C.refAgentUnused,
        jsonPath("$.agents", agent.id),
        `No phase dispatches agent "${agent.id}", and it is not the prioritizer.`,
        "Name it in a phase, or remove it.",
      );
    }
  }
}

/** Warns about an actionable phase from which no terminal phase can be reached. */
function checkFlow(problems: ProblemList, workflow: Workflow): void {
  const byId = new Map(workflow.phases.map((phase) => [phase.id, phase]));
  for (const start of workflow.phases) {
    if (start.type !== "actionable") continue;
    const seen = new Set<string>([start.id]);
    const queue = [start.id];
    let terminal = false;
    while (queue.length > 0 && !terminal) {
      const phase = byId.get(queue.shift() as string);
      if (phase === undefined) continue;
      if (phase.type === "terminal") terminal = true;
      if (phase.type !== "actionable") continue;
      const agent = workflow.agents.find((candidate) => candidate.id === phase.agent);
      for (const next of agent === undefined ? [] : agentTargets(workflow, agent)) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    if (!terminal && workflow.phases.some((phase) => phase.type === "terminal")) {
      problems.warning(
        C.flowNoTerminal,
        jsonPath("$.phases", start.id),
        `From phase "${start.id}" no terminal phase can be reached through the agents' outcomes: an issue there never finishes by itself.`,
        "Route an outcome of the agents on the way to a terminal phase.",
      );
    }
  }
}

/** The checks across fields: references between phases, labels and agents, and the flow. */
export function checkWorkflow(problems: ProblemList, workflow: Workflow): void {
  checkPhases(problems, workflow);
  checkLabelMapping(problems, workflow);
  checkLabelSpecs(problems, workflow);
  checkAgents(problems, workflow);
  checkFlow(problems, workflow);
  checkHandoffs(problems, workflow);
  checkChecksPhases(problems, workflow);
}
