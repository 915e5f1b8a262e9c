import type { Workflow } from "../workflow-model.ts";

function pascal(outcome: string): string {
  return outcome
    .split(/[-_\s]+/)
    .filter((part) => part !== "")
    .map((part) => `${part[0]?.toUpperCase() ?? ""}${part.slice(1)}`)
    .join("");
}

/**
 * The template for an agent's outcome. Names tried, in order: `<agent><Outcome>` and
 * `<agent>To<Outcome>` with the outcome's first letter upper-cased (`iteratorSuccess`), then the
 * same with a kebab- or snake-case outcome in PascalCase (`handoff-detail` →
 * `considererHandoffDetail`), which is how workflows name the templates of such verdicts.
 */
export function commentTemplateFor(
  workflow: Workflow,
  agentId: string,
  outcome: string,
): { readonly name: string; readonly text: string } | null {
  const capitalized = outcome === "" ? "" : `${outcome[0]?.toUpperCase()}${outcome.slice(1)}`;
  const names = [
    `${agentId}${capitalized}`,
    `${agentId}To${capitalized}`,
    `${agentId}${pascal(outcome)}`,
    `${agentId}To${pascal(outcome)}`,
  ];
  for (const name of names) {
    const text = workflow.commentTemplates[name];
    if (text !== undefined) return { name, text };
  }
  return null;
}

/** Replaces `{name}` placeholders; a placeholder without a value stays as written. */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The footer that marks a comment as posted for one run, so a retried pass never posts it twice. */
export function commentMarker(issue: number, runId: string, kind: string): string {
  return `climpt-orchestrator:${kind}:issue-${issue}:run-${runId}`;
}

export function withMarker(body: string, marker: string): string {
  return `${body.trimEnd()}\n\n<sub>🤖 ${marker}</sub>`;
}
