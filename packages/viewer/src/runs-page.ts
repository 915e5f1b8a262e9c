import { renderPage } from "./render-page.ts";
import { DeclaredFlowCache, loadRunSource } from "./run-source.ts";
import { pageScrubber } from "./scrub-secrets.ts";
import type { PageData, RunSource, RunSummary } from "./view-model.ts";

export interface RunsPageOptions {
  /** Journal files to show, in the order of the runs list. */
  readonly journals: readonly string[];
  /** The run the page opens first (default: the first journal's). */
  readonly selectedRunId?: string;
  /** Environment whose secret-named variables' values are scrubbed (default: none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** "Now", for the page's "generated" line. */
  readonly now?: Date;
}

/** One self-contained HTML page holding the given runs. Reads the journals; never writes them. */
export async function renderRunsPage(options: RunsPageOptions): Promise<string> {
  const scrubber = pageScrubber(options.env ?? {});
  const flows = new DeclaredFlowCache();
  const runs: RunSummary[] = [];
  const sources: Record<string, RunSource> = {};
  for (const journal of options.journals) {
    const loaded = await loadRunSource(journal, scrubber, flows);
    runs.push(loaded.summary);
    sources[loaded.summary.runId] = { ...loaded.source, runId: loaded.summary.runId };
  }
  const data: PageData = {
    mode: "file",
    generatedAt: (options.now ?? new Date()).toISOString(),
    runs,
    sources,
    selectedRunId: options.selectedRunId ?? runs[0]?.runId ?? null,
  };
  const title =
    runs.length === 1 ? `climpt run ${runs[0]?.runId} (${runs[0]?.agent})` : "climpt runs";
  return renderPage(data, title);
}
