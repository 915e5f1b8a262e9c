/** The events of a journal's text, and the lines that were not JSON objects. */
export interface ParsedLines {
  readonly events: unknown[];
  /** 1-based line numbers of lines that did not parse (a torn last line, an edit). */
  readonly skippedLines: number[];
}

/**
 * Parses JSON lines for showing, not for resuming: unlike the runner's `readJournal`, a bad line
 * anywhere is skipped and reported instead of failing, because a viewer must show what it can of
 * a journal that was cut off or edited.
 */
export function parseJournalLines(text: string, firstLineNumber = 1): ParsedLines {
  const events: unknown[] = [];
  const skippedLines: number[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    if (line === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) events.push(value);
      else skippedLines.push(firstLineNumber + index);
    } catch {
      skippedLines.push(firstLineNumber + index);
    }
  }
  return { events, skippedLines };
}

/** A notice about skipped lines, or none. */
export function skippedLinesNotice(file: string, skipped: readonly number[]): string[] {
  if (skipped.length === 0) return [];
  const shown = skipped.slice(0, 5).join(", ");
  return [
    `${skipped.length} line${skipped.length === 1 ? "" : "s"} of ${file} did not parse and ${skipped.length === 1 ? "is" : "are"} not shown (line ${shown}${skipped.length > 5 ? ", …" : ""}).`,
  ];
}
