/**
 * Paths inside an agent definition (prompt and schema folders, the registry, the system prompt)
 * are relative to the agent folder and may not leave it.
 *
 * The rule for paths written from the repository root: the original Deno runtime resolved
 * `userPromptsBase` from the repository root, so real registries say
 * `".agent/iterator/prompts"`. A path whose first segment is `.agent` is read that way: the
 * `.agent/<name>/` prefix is dropped and the rest is relative to the agent folder. Any `<name>`
 * is accepted, not only the folder's own, so a copied and renamed agent folder keeps working.
 * (Nobody means a `.agent` folder nested inside an agent folder.)
 */
export type AgentRelativePath =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: "absolute" | "escapes" };

export function toAgentRelativePath(written: string): AgentRelativePath {
  const unified = written.replace(/\\/g, "/");
  if (unified.startsWith("/") || /^[A-Za-z]:\//.test(unified) || /^[A-Za-z]:$/.test(unified)) {
    return { ok: false, reason: "absolute" };
  }
  const segments: string[] = [];
  for (const segment of unified.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return { ok: false, reason: "escapes" };
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments[0] === ".agent" && segments.length >= 2) segments.splice(0, 2);
  return { ok: true, value: segments.length === 0 ? "." : segments.join("/") };
}
