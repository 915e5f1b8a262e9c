/**
 * The codes of the `climpt view --serve` server's JSON errors (`{error: {code, message}}`). The
 * README lists them; docs/codes.md (generated from every package's table) catalogues them all.
 */
export const VIEW_SERVE_CODES = {
  /** A request other than GET: the viewer never changes a journal. Fix: Use GET. */
  notGet: "VIEW-SERVE-002",
  /**
   * A request whose Host is not 127.0.0.1 or localhost (refused, which stops DNS rebinding). Fix:
   * Open the address `climpt view --serve` printed.
   */
  foreignHost: "VIEW-SERVE-003",
  /** No such run in the project, or nothing at that path. Fix: Take the run ids from `/api/runs`. */
  notFound: "VIEW-SERVE-004",
  /**
   * An unexpected failure while answering (the message says which). Fix: Report it with the
   * request and the message.
   */
  failed: "VIEW-SERVE-005",
} as const;

export type ViewServeCode = (typeof VIEW_SERVE_CODES)[keyof typeof VIEW_SERVE_CODES];
