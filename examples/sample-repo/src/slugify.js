/**
 * Turns a title into a URL slug: lower case, ASCII letters and digits, words joined by one dash.
 */
export function slugify(title) {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]/g, "-");
}
