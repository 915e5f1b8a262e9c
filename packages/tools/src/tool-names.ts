/** Tools that work on the working directory. Names follow the original runtime's allowedTools. */
export const FILE_TOOL_NAMES = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"] as const;

/**
 * GitHub tools: they exist only in closure steps of an agent whose GitHub integration is enabled
 * (on entering a closure step). Close and label changes are deferred to the boundary hook.
 */
export const GITHUB_TOOL_NAMES = [
  "github_comment",
  "github_edit_labels",
  "github_close_issue",
] as const;

export const TOOL_NAMES: readonly [...typeof FILE_TOOL_NAMES, ...typeof GITHUB_TOOL_NAMES] = [
  ...FILE_TOOL_NAMES,
  ...GITHUB_TOOL_NAMES,
] as const;

export type FileToolName = (typeof FILE_TOOL_NAMES)[number];
export type GithubToolName = (typeof GITHUB_TOOL_NAMES)[number];
export type ToolName = FileToolName | GithubToolName;

/** Tools with side effects: refused under `permissionMode: plan`. */
export const WRITING_TOOL_NAMES: readonly ToolName[] = [
  "Write",
  "Edit",
  "Bash",
  ...GITHUB_TOOL_NAMES,
];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export function isGithubToolName(name: string): name is GithubToolName {
  return (GITHUB_TOOL_NAMES as readonly string[]).includes(name);
}
