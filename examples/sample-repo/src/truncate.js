/** Shortens text to at most `max` characters, ending with an ellipsis when it cut something. */
export function truncate(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
