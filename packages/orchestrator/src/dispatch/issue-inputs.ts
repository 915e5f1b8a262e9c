import { lstat, mkdir, readFile, realpath, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  issueParameterName,
  type JsonValue,
  type LoadedAgent,
  ownEntry,
  setEntry,
} from "@climpt/model";
import { artifactPathProblem } from "../handoff/check-handoffs.ts";
import type { DispatchRequest, IssueArtifact } from "./dispatcher.ts";

/**
 * A run's arguments, as the original composes them: the issue's payload first, then the issue
 * number under the agent's issue parameter (a fixed key wins over a payload key of the same
 * name). Only keys the agent declares as
 * parameters are passed (the runner refuses undeclared arguments; the original's runner ignores
 * them), so a payload key no parameter names never reaches the agent.
 */
export function argumentsOf(
  loaded: LoadedAgent,
  request: Pick<DispatchRequest, "issue" | "payload">,
): Record<string, JsonValue> {
  const declared = loaded.agent.parameters;
  const args: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(request.payload ?? {})) {
    if (Object.hasOwn(declared, key)) args[key] = value;
  }
  // The issue goes to the agent's issue parameter (`role: "issue"`, else the one named `issue`).
  const name = issueParameterName(loaded.agent);
  const issue = ownEntry(declared, name);
  if (issue !== undefined) {
    setEntry(
      args,
      name,
      issue.type === "string" ? String(request.issue.number) : request.issue.number,
    );
  }
  return args;
}

function inside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * Writes the issue's handoff artifacts into its worktree (where the runs that read them work),
 * unless a file there already holds the same text. A path is taken only when it stays inside the
 * worktree once every symbolic link on the way is followed, and the file is written beside its
 * place and renamed over it, so a link the agents left at the artifact's own path is replaced,
 * never followed.
 */
export async function writeArtifacts(
  worktree: string,
  artifacts: readonly IssueArtifact[],
): Promise<void> {
  if (artifacts.length === 0) return;
  const root = await realpath(worktree);
  for (const artifact of artifacts) {
    const problem = artifactPathProblem(artifact.path);
    if (problem !== null) throw new Error(`${artifact.path}: ${problem}`);
    const file = path.resolve(root, artifact.path);
    const folder = path.dirname(file);
    await mkdir(folder, { recursive: true });
    const real = await realpath(folder);
    if (real !== root && !inside(root, real))
      throw new Error(`${artifact.path} leads out of the worktree (to ${real})`);
    const target = path.join(real, path.basename(file));
    const existing = await lstat(target).catch(() => null);
    if (existing?.isFile() && (await readFile(target, "utf8")) === artifact.content) continue;
    const temporary = `${target}.climpt-${process.pid}.tmp`;
    await unlink(temporary).catch(() => undefined);
    await writeFile(temporary, artifact.content, { flag: "wx" });
    await rename(temporary, target);
  }
}
