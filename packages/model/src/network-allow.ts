/**
 * Whether a host is in an agent's network allow list (`runner.boundaries.sandbox.network.allow`:
 * names or IP literals, `*.` wildcard prefixes, optional `:port`). The sandbox's proxy applies the
 * list to commands; the host applies it with this to what it reaches for the agent itself (an http
 * MCP server), so both read one list the same way.
 */
export function hostAllowed(allow: readonly string[], host: string, port: number): boolean {
  const wanted = host.replace(/^\[|\]$/g, "").toLowerCase();
  return allow.some((entry) => {
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(entry.toLowerCase());
    if (match === null) return false;
    const name = (match[1] ?? "").replace(/^\[|\]$/g, "");
    const entryPort = match[2];
    if (entryPort !== undefined && Number(entryPort) !== port) return false;
    if (name.startsWith("*.")) return wanted.endsWith(name.slice(1));
    return name === wanted;
  });
}

/** The host and port a URL reaches (the scheme's default port when none is written). */
export function urlHostPort(url: URL): { readonly host: string; readonly port: number } {
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  return { host: url.hostname.replace(/^\[|\]$/g, "").toLowerCase(), port };
}
