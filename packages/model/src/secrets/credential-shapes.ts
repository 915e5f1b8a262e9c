/**
 * Text shaped like a credential, recognised without knowing its value: for output that may be
 * published (a viewer page attached to an issue) where a token someone else printed must not
 * survive either. Not applied by default: inside a run the scrubber also cleans tool output the
 * model reads, and rewriting every `PASSWORD=…` line of a source file would break edits to it.
 *
 * Every pattern is a literal prefix followed by character classes (no nested quantifiers), so
 * matching stays linear in the text. Private key blocks are cut by `indexOf`, not by a lazy
 * regular expression, which would rescan the rest of the text for every unterminated BEGIN line.
 */

export interface CredentialShape {
  readonly pattern: RegExp;
  /** A `String.prototype.replace` replacement (may use `$1`). */
  readonly replace: string;
}

/** What replaces a credential found by its shape (its name is unknown, so no label). */
export const SHAPE_REDACTION = "[redacted]";

export const CREDENTIAL_SHAPES: readonly CredentialShape[] = [
  { pattern: /sk-ant-[A-Za-z0-9_-]{8,}/g, replace: SHAPE_REDACTION },
  { pattern: /\bsk-[A-Za-z0-9_-]{20,}/g, replace: SHAPE_REDACTION },
  {
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: SHAPE_REDACTION,
  },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: SHAPE_REDACTION },
  { pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: SHAPE_REDACTION },
  { pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/g, replace: `$1 ${SHAPE_REDACTION}` },
  // `NAME=value` of a secret-named variable, as `env`, `export` or a .env file prints it.
  {
    pattern:
      /\b([A-Za-z0-9_]*(?:API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Za-z0-9_]*)=(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)/g,
    replace: `$1=${SHAPE_REDACTION}`,
  },
];

const KEY_BEGIN = /-----BEGIN [A-Z ]*PRIVATE KEY-----/g;
const KEY_END = /-----END [A-Z ]*PRIVATE KEY-----/g;

/** `text` with every PEM private key block (BEGIN line to the next END line) replaced. */
function scrubPrivateKeys(text: string): string {
  if (!text.includes("PRIVATE KEY-----")) return text;
  let out = "";
  let from = 0;
  for (;;) {
    KEY_BEGIN.lastIndex = from;
    const begin = KEY_BEGIN.exec(text);
    if (begin === null) break;
    KEY_END.lastIndex = begin.index + begin[0].length;
    const end = KEY_END.exec(text);
    // No END after this BEGIN means none after any later BEGIN either: stop.
    if (end === null) break;
    out += `${text.slice(from, begin.index)}[redacted private key]`;
    from = end.index + end[0].length;
  }
  return out + text.slice(from);
}

/** `text` with every credential-shaped piece replaced. */
export function scrubCredentialShapes(text: string): string {
  let out = scrubPrivateKeys(text);
  for (const { pattern, replace } of CREDENTIAL_SHAPES) out = out.replace(pattern, replace);
  return out;
}
