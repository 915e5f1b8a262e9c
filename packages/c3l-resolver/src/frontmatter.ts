export interface PromptBody {
  /** The prompt without its frontmatter (and without a leading byte-order mark). */
  readonly text: string;
  /** The 1-based line of the file on which `text` starts, so messages can cite file lines. */
  readonly firstLine: number;
}

/**
 * Strips a YAML frontmatter block (`---` on the first line, up to the next line that is exactly
 * `---`) from the top of a prompt. Prompt files written for the original tool carry metadata
 * there that is not meant for the model. Without a closing `---` line the text is returned
 * unchanged: it is then a Markdown rule, not frontmatter. `\r\n` line ends are accepted.
 */
export function stripFrontmatter(raw: string): PromptBody {
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  const opening = /^---[ \t]*\r?\n/.exec(text);
  if (!opening) return { text, firstLine: 1 };
  const closing = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(opening[0].length);
  const match = closing.exec(rest);
  if (!match) return { text, firstLine: 1 };
  const end = opening[0].length + match.index + match[0].length;
  const removed = text.slice(0, end);
  const lines = removed.split("\n").length - (removed.endsWith("\n") ? 1 : 0);
  return { text: text.slice(end), firstLine: lines + 1 };
}
