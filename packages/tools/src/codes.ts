/**
 * Stable codes this package puts in tool results, events and audit problems. The README lists
 * them with their meaning. They form the `TOOL-*` family: no other code family covers tool calls.
 */
export const TOOL_CODES = {
  /**
   * The tool does not exist in this step (allowedTools, step kind, GitHub integration, unknown
   * name). Example: `"WebFetch" is not in the agent's allowedTools (agent.json).` Fix: Add it to
   * `allowedTools` if the step should have it.
   */
  unavailable: "TOOL-POLICY-001",
  /**
   * `permissionMode: plan` is read-only. Example: `step "initial.plan" runs in permissionMode
   * "plan", which is read-only: …` Fix: Use another permission mode for steps that change files.
   */
  planReadOnly: "TOOL-POLICY-002",
  /**
   * A Bash command matches a boundary pattern (issue close, merge, release, `gh api`, force push…).
   * Example: `` TOOL-POLICY-003 refused by the … policy: `gh issue close` is a boundary action:
   * only the boundary hook may perform it, once, after the completion chain validated the run. ``
   * Fix: Boundary actions happen only in the boundary hook after validated completion.
   */
  boundaryCommand: "TOOL-POLICY-003",
  /**
   * A path leaves the working directory (`..`, absolute, symbolic link) or enters `.git`. Example:
   * `"../other/file" is outside the working directory; file tools only reach files under it.` Fix:
   * Work inside the run's working directory; change `.git` through git commands.
   */
  pathOutside: "TOOL-POLICY-004",
  /**
   * The input does not match the tool's input schema. Example: `TOOL-INPUT-001: invalid input for
   * Read: …` Fix: The model's call was malformed; the model sees this and retries.
   */
  invalidInput: "TOOL-INPUT-001",
  /**
   * The file or directory does not exist, or is the wrong kind of entry. Example: `"src/mian.ts"
   * does not exist. Use Glob to find files.` Fix: — (the model reads it).
   */
  fileNotFound: "TOOL-FILE-001",
  /**
   * The file is binary or too large to show. Example: `"logo.png" is a binary file (2048 bytes);
   * Read shows text files only.` Fix: — (the model reads it).
   */
  fileUnreadable: "TOOL-FILE-002",
  /**
   * Edit: `old_string` does not occur in the file. Example: `old_string was not found in
   * "src/a.ts".` Fix: — (the model reads it).
   */
  editNoMatch: "TOOL-EDIT-001",
  /**
   * Edit: `old_string` occurs more than once and `replace_all` is not set. Example: `old_string
   * occurs 3 times in "src/a.ts". …` Fix: — (the model reads it).
   */
  editNotUnique: "TOOL-EDIT-002",
  /**
   * Bash: the command ran past its timeout; its process group was killed. Example: `TOOL-BASH-001:
   * the command ran longer than 120000 ms; it and every process it started were killed.` Fix: —
   * (the model reads it).
   */
  bashTimeout: "TOOL-BASH-001",
  /**
   * Bash: the call was aborted; its process group was killed. Example: `TOOL-BASH-002: the call was
   * aborted; the command and every process it started were killed.` Fix: —
   */
  bashAborted: "TOOL-BASH-002",
  /**
   * `gh` could not be run or exited non-zero. Example: `gh issue comment 12 exited with code 1: …`
   * Fix: Install and authenticate `gh`.
   */
  ghFailed: "TOOL-GH-001",
  /**
   * A GitHub tool asked to act on an issue, pull request or repository that is not the run's own
   * and that agent.json does not declare (`integrations.github.targets`). Example: `TOOL-GH-002
   * refused by the GitHub target policy: issue #7 is not the run's: this run's issue is #1. …` Fix:
   * Act on the run's issue, or declare `targets` in agent.json.
   */
  notRunsTarget: "TOOL-GH-002",
  /**
   * `github_comment` could not post: the run's repository is unknown (gh could not tell it in the
   * working directory when the run started), so there is nowhere the comment may go. Example:
   * `TOOL-GH-003: gh was not run: the run's repository is unknown (`gh repo view` in the working
   * directory failed: no git remotes found), …` Fix: Start the run in a clone with a github.com
   * remote, or set `GH_REPO=owner/repo`.
   */
  unknownRepository: "TOOL-GH-003",
  /**
   * The OS sandbox is required but cannot run here (missing programs, no user namespaces). Example:
   * `TOOL-SANDBOX-001: bubblewrap (bwrap) not installed. Bash commands run only inside the OS
   * sandbox …` Fix: Install `bubblewrap socat ripgrep`, allow user namespaces, or set
   * `runner.boundaries.sandbox` to `"off"`.
   */
  sandboxUnavailable: "TOOL-SANDBOX-001",
  /**
   * Notice: the agent turned the sandbox off; model-issued commands run unsandboxed. Example:
   * `TOOL-SANDBOX-002: the OS sandbox is off for this agent …` Fix: Remove `"off"` unless the agent
   * really needs the host's files, network and credentials.
   */
  sandboxOff: "TOOL-SANDBOX-002",
  /**
   * Bash: git inside the sandbox changed refs other than the run's own branch, or moved HEAD; the
   * repository's are unchanged (also a journal notice). Example: `TOOL-GIT-001: only the run's own
   * ref refs/heads/climpt/fix/… changes in the repository from inside the sandbox; these changes
   * stayed in the sandbox's copy and are gone: refs/heads/main moved to 5d6e7f8a9b0c.` Fix: Commit
   * on the run's branch; leave other refs to the finish and the boundary hook.
   */
  gitNotKept: "TOOL-GIT-001",
  /**
   * Bash: the host refused to take back what git inside the sandbox wrote (a malformed object, an
   * index git cannot read, the run's branch moved to something that is not a commit). Example:
   * `TOOL-GIT-002: refs/heads/feature was moved to 1234…, which is not a commit in the repository;
   * it stays at 89ab….` Fix: Commit with git as usual; do not write into `.git` by hand.
   */
  gitRefused: "TOOL-GIT-002",
  /**
   * A regular expression or glob took longer than its deadline (catastrophic backtracking).
   * Example: `TOOL-PATTERN-001: the pattern "^(a+)+$" matching took longer than 20000 ms and was
   * stopped. …` Fix: Simplify the pattern (no nested repetition, fewer overlapping alternatives).
   */
  patternTimeout: "TOOL-PATTERN-001",
  /**
   * A command is longer than the boundary filter inspects. Example: `the command is 70000
   * characters long, more than 65536; write the commands to a script file …` Fix: Write the
   * commands to a script in the working directory and run it.
   */
  commandTooLong: "TOOL-BASH-003",
  /**
   * An unexpected I/O failure inside a tool. Example: `TOOL-IO-001: Write failed: …` Fix: Report it
   * if it repeats.
   */
  ioFailure: "TOOL-IO-001",
  /**
   * Audit: a tool name in allowedTools that climpt does not provide; it is ignored. Example:
   * `"WebSearch" in … is not a climpt tool and is ignored.` Fix: Remove it.
   */
  auditUnknownTool: "TOOL-AUDIT-001",
  /**
   * Audit: a step's allowedTools names a tool the agent's allowedTools does not grant. Example:
   * `Step "initial.issue" lists "Bash", which the agent's allowedTools does not grant; a step list
   * only narrows, so the step does not get it.` Fix: Grant it in agent.json, or drop it from the
   * step.
   */
  auditStepWidens: "TOOL-AUDIT-002",
  /**
   * createToolbox: the working directory does not exist or is not a directory. Example: `The tools'
   * working directory "/tmp/gone" does not exist or is not a directory.` Fix: Pass an existing
   * directory as `cwd`.
   */
  badWorkingDirectory: "TOOL-CONFIG-001",
  /**
   * An MCP server did not start: its command failed, it exited or it did not answer `initialize`
   * and `tools/list` in time. Example: `TOOL-MCP-001: MCP server "files" (npx -y
   * @modelcontextprotocol/server-filesystem /) did not start: … Its stderr ended with: …` Fix:
   * Run the command by hand in the working directory; inside the sandbox it has only the
   * variables its `env` declares, no network unless `sandbox.network.allow` lists hosts, and an
   * empty home directory.
   */
  mcpStartFailed: "TOOL-MCP-001",
  /**
   * An MCP server died or broke the protocol during a tool call (not a tool that reported an
   * error, which the model gets as the tool's own result). Example: `TOOL-MCP-002: MCP server
   * "files" (node server.js) ended during mcp__files__read_file: … Its stderr ended with: …` Fix:
   * Look at the server's stderr tail; the server is not restarted in this run.
   */
  mcpServerDied: "TOOL-MCP-002",
  /**
   * An http MCP server's url is at a host the agent's `sandbox.network.allow` does not declare
   * (the loader refuses it as AC-MCP-002; this is the toolbox's own check). Example: `MCP server
   * "docs" is at mcp.example.com:443, which the agent does not declare.` Fix: Add the host to
   * `runner.boundaries.sandbox.network.allow`.
   */
  mcpHostRefused: "TOOL-MCP-003",
  /**
   * An MCP tool call ran past its time bound (2 minutes by default) or was stopped (`--max-time`,
   * Ctrl-C). Example: `TOOL-MCP-004: mcp__everything__trigger-long-running-operation was stopped
   * after 120000 ms.` Fix: Ask for less work per call.
   */
  mcpCallTimeout: "TOOL-MCP-004",
  /**
   * A replayed run (`--replay`) called an MCP tool the cassette has no result for; no server is
   * started on replay. Example: `TOOL-MCP-005: the cassette has no result for
   * mcp__files__read_file call toolu_3.` Fix: Record the cassette again.
   */
  mcpReplayMissing: "TOOL-MCP-005",
  /**
   * `climpt validate --check-mcp`: an allowedTools entry names a tool its running MCP server does
   * not offer. Example: `allowedTools names "mcp__files__read", but MCP server "files" does not
   * offer a tool "read" (it offers: read_text_file, …).` Fix: Name one of the server's tools, or
   * `mcp__<server>` for all of them.
   */
  mcpToolNotOffered: "TOOL-MCP-006",
  /**
   * An agent declares MCP servers, but the MCP client (`@modelcontextprotocol/sdk`, an optional
   * peer dependency a light install leaves out) is not installed. Example: `TOOL-MCP-007: the
   * agent declares MCP servers, but @modelcontextprotocol/sdk is not installed.` Fix: Install it
   * next to climpt: `npm i -D @modelcontextprotocol/sdk` (or `pnpm add -D …`).
   */
  mcpClientMissing: "TOOL-MCP-007",
} as const;

export type ToolCode = (typeof TOOL_CODES)[keyof typeof TOOL_CODES];
