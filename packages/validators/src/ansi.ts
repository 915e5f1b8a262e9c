// CSI sequences (colours, cursor moves) and OSC sequences (terminal hyperlinks, as biome prints
// them) terminated by BEL or ST. Tools colour their output when they think a person is watching,
// and FORCE_COLOR in a user's environment makes that happen under a validator too.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;

/** The text without terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.includes("\u001b") || text.includes("\u009b") ? text.replace(ANSI_PATTERN, "") : text;
}
