import type { RepositoryCheck } from "./detect-checks.ts";
import type { ScaffoldFile } from "./scaffold-file.ts";

/** The completion-chain parts of a steps_registry.json, each keyed by validator, pattern or step. */
export interface CompletionChainJson {
  readonly validators: Record<string, unknown>;
  readonly failurePatterns: Record<string, unknown>;
  readonly validationSteps: Record<string, unknown>;
}

const LABEL = { test: "tests", typecheck: "type check", lint: "lint" } as const;

/**
 * The completion chain of an agent that changes code (implement, ci-fixer): its close-out is
 * refused until every change is committed and the repository's own test, type-check and lint
 * commands exit 0. A refusal sends the work back with a retry prompt that quotes what failed.
 * `retryFolder` is the `c3` of the retry prompts (prompts/steps/retry/<retryFolder>/).
 */
export function completionChain(
  closureStep: string,
  retryFolder: string,
  checks: readonly RepositoryCheck[],
): CompletionChainJson {
  const validators: Record<string, unknown> = {
    "git-clean": {
      type: "command",
      command: "git status --porcelain",
      successWhen: "empty",
      failurePattern: "git-dirty",
      extractParams: { changedFiles: "parseChangedFiles" },
    },
  };
  const failurePatterns: Record<string, unknown> = {
    "git-dirty": {
      description: "Uncommitted changes are present",
      edition: "failed",
      adaptation: "git-dirty",
      params: ["changedFiles"],
    },
  };
  for (const check of checks) {
    validators[check.kind] = {
      type: "command",
      command: check.command,
      successWhen: "exitCode:0",
      failurePattern: `${check.kind}-failed`,
      extractParams: { output: "stdout", errors: "stderr" },
    };
    failurePatterns[`${check.kind}-failed`] = {
      description: `The ${LABEL[check.kind]} command fails (${check.source})`,
      edition: "failed",
      adaptation: `${check.kind}-failed`,
      params: ["output", "errors"],
    };
  }
  const validationSteps: Record<string, unknown> = {
    [closureStep]: {
      stepId: closureStep,
      name: "Committed, and the repository's checks pass",
      c2: "retry",
      c3: retryFolder,
      validationConditions: Object.keys(validators).map((validator) => ({ validator })),
      onFailure: { action: "retry", maxAttempts: 3 },
    },
  };
  return { validators, failurePatterns, validationSteps };
}

/** The retry prompts of `completionChain`: one per failure pattern, and the general one. */
export function retryPrompts(
  retryFolder: string,
  checks: readonly RepositoryCheck[],
  answer: string,
): ScaffoldFile[] {
  const folder = `prompts/steps/retry/${retryFolder}`;
  return [
    {
      path: `${folder}/f_failed.md`,
      content: `# Step: finish the work

The issue: #{uv-issue}

Finishing was refused: a check failed. Fix what it reports, commit, and hand off again.

${answer}
`,
    },
    {
      path: `${folder}/f_failed_git-dirty.md`,
      content: `# Step: commit your work

The issue: #{uv-issue}

Finishing was refused: \`git status --porcelain\` is not empty, so the work is not committed.

{{#if changedFiles}}Not committed (changed or new):
{{#each changedFiles}}- {{this}}
{{/each}}{{/if}}
Check that these files hold the intended change (\`git diff\`), then commit them, or remove what
should not be there. Never commit a dependency or build folder (node_modules/, dist/, build/,
.venv/, target/, …): if \`git status --porcelain\` shows one, add it to \`.gitignore\` and commit
that.

${answer}
`,
    },
    ...checks.map((check) => ({
      path: `${folder}/f_failed_${check.kind}-failed.md`,
      content: `# Step: make the ${LABEL[check.kind]} pass

The issue: #{uv-issue}

Finishing was refused: \`${check.command}\` exited non-zero. Its output:

\`\`\`
{{output}}
{{errors}}
\`\`\`

Fix the cause in the code (not the check itself), run \`${check.command}\` until it passes, and
commit.

${answer}
`,
    })),
  ];
}

/** The commands as a list for a prompt: what the agent must run before it hands off. */
export function checksList(checks: readonly RepositoryCheck[]): string {
  if (checks.length === 0) return "- (none configured)";
  return checks.map((check) => `- ${LABEL[check.kind]}: \`${check.command}\``).join("\n");
}
