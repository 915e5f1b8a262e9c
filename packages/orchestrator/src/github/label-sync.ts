import type { OrchestratorError } from "../codes.ts";
import { githubLabel, type LabelSpec, type Workflow } from "../workflow-model.ts";
import type { GhClient, GhLabel, GhResult } from "./gh-client.ts";

export type LabelSyncAction = "created" | "updated" | "unchanged" | "failed";

export interface LabelSyncEntry {
  /** The label as it is on GitHub (with the workflow's prefix). */
  readonly name: string;
  readonly action: LabelSyncAction;
  readonly error?: OrchestratorError;
}

/** Colour of a label the workflow uses without declaring it in `labels`. */
const UNDECLARED_COLOR = "ededed";

/**
 * The labels the workflow needs on GitHub, with their specs: the declared `labels`, or, when the
 * file has none, every phase and order label with a neutral colour (created when missing, never
 * changed when present: nothing says what they should look like).
 */
export function wantedLabels(workflow: Workflow): { label: GhLabel; declared: boolean }[] {
  if (workflow.labels !== null) {
    return Object.entries(workflow.labels).map(([name, spec]: [string, LabelSpec]) => ({
      label: {
        name: githubLabel(workflow, name),
        color: spec.color,
        description: spec.description,
      },
      declared: true,
    }));
  }
  const names = [
    ...workflow.labelMapping.map(([label]) => label),
    ...(workflow.prioritizer?.labels ?? []),
  ];
  return [...new Set(names)].map((name) => ({
    label: {
      name: githubLabel(workflow, name),
      color: UNDECLARED_COLOR,
      description: "climpt workflow label",
    },
    declared: false,
  }));
}

/**
 * Creates the workflow's labels that are missing and updates those whose colour or description
 * differ. One failing label does not stop the others; each gets its own entry. Only the listing
 * failing is a failure of the whole sync. `dryRun` reports what would change and changes nothing.
 */
export async function syncLabels(
  gh: GhClient,
  workflow: Workflow,
  options: { readonly dryRun?: boolean } = {},
): Promise<GhResult<LabelSyncEntry[]>> {
  const listed = await gh.listLabels();
  if (!listed.ok) return listed;
  const existing = new Map(listed.value.map((label) => [label.name.toLowerCase(), label]));
  const entries: LabelSyncEntry[] = [];
  for (const { label, declared } of wantedLabels(workflow)) {
    const current = existing.get(label.name.toLowerCase());
    const action: LabelSyncAction =
      current === undefined
        ? "created"
        : declared &&
            (current.color.toLowerCase() !== label.color.toLowerCase() ||
              current.description !== label.description)
          ? "updated"
          : "unchanged";
    if (action === "unchanged" || options.dryRun === true) {
      entries.push({ name: label.name, action });
      continue;
    }
    const done =
      action === "created"
        ? await gh.createLabel(label)
        : await gh.editLabel({ ...label, name: current?.name ?? label.name });
    entries.push(
      done.ok
        ? { name: label.name, action }
        : { name: label.name, action: "failed", error: done.error },
    );
  }
  return { ok: true, value: entries };
}
