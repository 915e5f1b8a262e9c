/**
 * The CLI flag of an agent parameter that declares none: `--` plus the name in kebab case.
 * `issue` → `--issue`, `projectOwner` → `--project-owner`, `baseURL` → `--base-url`,
 * `issue_number` → `--issue-number`.
 */
export function cliFlagFor(parameterName: string): string {
  const kebab = parameterName
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[\s_.]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
  return `--${kebab}`;
}

/** What a declared flag must look like: `--` and lowercase kebab case. */
export const CLI_FLAG_PATTERN: RegExp = /^--[a-z0-9][a-z0-9-]*$/;
