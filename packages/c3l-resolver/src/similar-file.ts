import { closestMatch } from "@climpt/model";
import type { PromptSource } from "./prompt-source.ts";

/**
 * A file next to `relativePath` whose name is close enough to be what was meant
 * (`f_defualt.md` for `f_default.md`), as a path relative to the source; undefined when there is
 * none, or when the source cannot list folders. `exclude` holds names that already belong to
 * something else (another failure pattern's prompt), so they are never offered.
 */
export async function similarPromptFile(
  source: PromptSource,
  relativePath: string,
  exclude: ReadonlySet<string> = new Set(),
): Promise<string | undefined> {
  if (source.list === undefined) return undefined;
  const cut = relativePath.lastIndexOf("/");
  const folder = cut === -1 ? "" : relativePath.slice(0, cut);
  const name = relativePath.slice(cut + 1);
  let names: readonly string[];
  try {
    names = await source.list(folder);
  } catch {
    // Only a hint: a folder that cannot be listed offers nothing.
    return undefined;
  }
  const candidates = names.filter((entry) => entry !== name && !exclude.has(entry));
  const found = closestMatch(name, candidates);
  return found === undefined ? undefined : folder === "" ? found : `${folder}/${found}`;
}
