import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { actionsSetup, actionsWorkflow } from "./actions-workflow.ts";
import type { RepositoryCheck } from "./detect-checks.ts";
import { json } from "./gate-parts.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";
import { ciFixerAgent, implementAgent } from "./starter-implement.ts";
import { reviewAgent, triageAgent } from "./starter-judges.ts";
import { ciFixerMock, implementMock, reviewMock, triageMock } from "./starter-mocks.ts";
import { starterWorkflow } from "./starter-workflow.ts";

/** The starter sets `climpt init --workflow` knows. */
export const STARTER_WORKFLOWS = ["issue-to-pr"] as const;
export type StarterWorkflow = (typeof STARTER_WORKFLOWS)[number];

/** The agents of the issue-to-pr starter, in the order an issue meets them. */
export const STARTER_AGENTS = ["triage", "implement", "ci-fixer", "review"] as const;

function under(folder: string, files: readonly ScaffoldFile[]): ScaffoldFile[] {
  return files.map((file) => ({ path: `${folder}/${file.path}`, content: file.content }));
}

/**
 * Every file of the issue-to-pr starter, relative to the repository root: the workflow, its four
 * agents (each with its mock script) and the GitHub Actions workflow.
 */
export function starterFiles(
  root: string,
  checks: readonly RepositoryCheck[],
  climptVersion: string,
): ScaffoldFile[] {
  return [
    { path: ".agent/workflow.json", content: json(starterWorkflow()) },
    ...under(".agent/triage", [
      ...triageAgent(),
      { path: "mock.json", content: json(triageMock()) },
    ]),
    ...under(".agent/implement", [
      ...implementAgent(checks),
      { path: "mock.json", content: json(implementMock()) },
    ]),
    ...under(".agent/ci-fixer", [
      ...ciFixerAgent(checks),
      { path: "mock.json", content: json(ciFixerMock()) },
    ]),
    ...under(".agent/review", [
      ...reviewAgent(),
      { path: "mock.json", content: json(reviewMock()) },
    ]),
    {
      path: ".github/workflows/climpt.yml",
      content: actionsWorkflow(actionsSetup(root, climptVersion)),
    },
  ];
}

/**
 * What is already there of the files and agent folders init would write: init never overwrites,
 * and an agent folder half there would mix two agents, so any one of them refuses the whole set.
 */
export function existingTargets(root: string, files: readonly ScaffoldFile[]): string[] {
  const targets = new Set<string>([".agent/workflow.json", ".github/workflows/climpt.yml"]);
  for (const agent of STARTER_AGENTS) targets.add(`.agent/${agent}`);
  for (const file of files) if (!file.path.startsWith(".agent/")) targets.add(file.path);
  return [...targets].filter((target) => existsSync(path.join(root, target))).sort();
}

/** Writes the files under `root`; `wx`: a file that appeared since the check is not overwritten. */
export async function writeStarter(root: string, files: readonly ScaffoldFile[]): Promise<void> {
  for (const file of files) {
    const target = path.join(root, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content, { flag: "wx" });
  }
}
