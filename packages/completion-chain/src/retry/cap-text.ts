/** Default characters of command output a retry prompt carries per stream. */
export const DEFAULT_PROMPT_OUTPUT_CAP_CHARS = 6000;

/**
 * Shortens `text` to about `max` characters, keeping the start and, at three times the length,
 * the end: test runners and compilers print the summary and the last errors at the bottom.
 */
export function capText(text: string, max: number = DEFAULT_PROMPT_OUTPUT_CAP_CHARS): string {
  if (text.length <= max) return text;
  const head = Math.floor(max / 4);
  const tail = max - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n… [${omitted} characters omitted] …\n${text.slice(text.length - tail)}`;
}
