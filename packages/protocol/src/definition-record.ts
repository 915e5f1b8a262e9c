/**
 * What an agent folder held when a run started (or was resumed): a digest of every file in it —
 * agent.json, the registry, schemas, prompts, and whatever scripts its validators run — so that
 * `climpt resume` can tell whether the definition it is about to run is the one the run started
 * with (docs/design.md#the-journal-and-resume).
 */
export type DefinitionRecord =
  | {
      /** sha256 over every entry's relative path, kind and content digest, in path order. */
      readonly sha256: string;
      /** How many entries (files, links, special files) it covers. */
      readonly entries: number;
      /** Each entry's own digest, by relative path, when there are few enough to list. */
      readonly files?: Readonly<Record<string, string>>;
    }
  /** The folder was too large to digest: nothing is compared. */
  | { readonly skipped: string };
