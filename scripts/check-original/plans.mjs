// The scripted model replies `scripts/check-original.mjs` gives the original's agents, and how
// the original's code ends with them. Only the fields a decision rests on are written; the rest of
// each JSON reply is filled from the step's real schema (schema-instance.mjs).

/** The considerer's and detailer's way of commenting: a scratch file under $TMPDIR, then gh. */
const commentVia = (agent, issue, body) => ({
  bash: `cat > "$TMPDIR/${agent}-${issue}.md" <<'EOF'\n${body}\nEOF\ngh issue comment ${issue} --body-file "$TMPDIR/${agent}-${issue}.md"`,
});

export const consider = (issue, verdict) => [
  commentVia(
    "considerer",
    issue,
    `## 検討結果\n\n### 質問への回答\nAnswer for #${issue}.\n\n### 次アクション\n${verdict}`,
  ),
  {
    json: {
      stepId: "consider",
      status: "completed",
      summary: `Answered #${issue}.`,
      next_action: { action: "closing" },
      verdict,
      final_summary: `Recap of #${issue}: ${verdict}.`,
      handoff_anchor:
        verdict === "handoff-detail"
          ? { file: "notes/README.md", symbol: null, strategy: "add a note file" }
          : { file: null, symbol: null, strategy: null },
    },
  },
];

export const detail = (issue, verdict) => [
  commentVia(
    "detailer",
    issue,
    verdict === "blocked"
      ? "## Implementation Spec\n\n### Blocked\nNo anchor."
      : "## Implementation Spec\n\n### Summary\nAdd notes.",
  ),
  {
    json: {
      stepId: "detail",
      status: "completed",
      summary: `Detailed #${issue}.`,
      next_action: { action: "closing" },
      verdict,
      closure_action: "label-only",
      issue: { labels: { add: [], remove: [] } },
      detail_summary: `Spec of #${issue}: add notes/${issue}.md.`,
      spec_comment_url:
        verdict === "blocked"
          ? null
          : `https://github.com/acme/widgets/issues/${issue}#issuecomment-1`,
      blocked_reason: verdict === "blocked" ? "no concrete anchor" : null,
    },
  },
];

export const iterate = (issue) => [
  {
    bash: `mkdir -p notes && printf 'issue ${issue}\\n' > notes/${issue}.md && git add -A && git commit -qm 'notes: issue #${issue}'`,
  },
  { json: { stepId: "initial.polling", status: "in_progress", next_action: { action: "next" } } },
  {
    json: {
      stepId: "continuation.polling",
      status: "in_progress",
      next_action: { action: "handoff" },
    },
  },
  {
    json: {
      stepId: "closure.polling",
      status: "completed",
      next_action: { action: "closing" },
      closure_action: "label-only",
    },
  },
];

/** The reviewer and facilitator close out on a pushed branch (their branch-pushed validator). */
const push = { bash: "git push -u origin HEAD" };

export const review = [
  { json: { stepId: "initial.issue", status: "completed", next_action: { action: "handoff" } } },
  push,
  { json: { stepId: "closure.review", status: "completed", next_action: { action: "closing" } } },
];

export const facilitate = [
  {
    json: {
      stepId: "initial.statuscheck",
      status: "completed",
      next_action: { action: "handoff" },
    },
  },
  push,
  {
    json: {
      stepId: "closure.facilitation",
      status: "completed",
      next_action: { action: "closing" },
      recommendations: ["Unblock #14"],
      reasoning: "One issue waits for clearance.",
    },
  },
];

export const triage = (issue) => [
  { bash: "gh issue list --state open --json number,title,labels" },
  { bash: `gh issue edit ${issue} --add-label kind:consider --add-label order:1` },
  { text: `Triaged #${issue}: kind:consider, order:1.` },
];

/**
 * One run of each of the seven folders alone (`climpt run`), and how the original ends with the
 * same replies: success, the verdict, and what GitHub shows afterwards.
 */
export const SINGLE_RUNS = [
  {
    agent: "considerer",
    issue: 11,
    args: ["--issue", "11"],
    plan: { "considerer#11": consider(11, "done") },
    original: { success: true, verdict: "done", state: "OPEN", comments: 1 },
  },
  {
    agent: "detailer",
    issue: 12,
    args: ["--issue", "12"],
    plan: { "detailer#12": detail(12, "handoff-impl") },
    original: { success: true, verdict: "handoff-impl", state: "OPEN", comments: 1 },
  },
  {
    agent: "facilitator",
    issue: 14,
    args: ["--project", "3"],
    plan: { "facilitator#-": facilitate },
    original: { success: true, state: "OPEN", comments: 0 },
  },
  {
    agent: "iterator",
    issue: 13,
    args: ["--issue", "13"],
    plan: { "iterator#13": iterate(13) },
    original: { success: true, state: "OPEN", labelsInclude: "done", commit: "notes: issue #13" },
  },
  {
    agent: "reviewer",
    issue: 14,
    args: ["--issue", "14"],
    plan: { "reviewer#14": review },
    original: { success: true, state: "CLOSED", comments: 0 },
  },
  {
    agent: "triager",
    issue: 15,
    args: [],
    plan: { "triager#-": triage(15) },
    original: { success: true, state: "OPEN", labelsInclude: "kind:consider" },
  },
  {
    agent: "merger",
    issue: null,
    args: ["--pr-number", "8", "--verdict-path", "emits/8.json"],
    plan: {},
    original: { success: true, pr: "MERGED" },
  },
];

/**
 * The batch over the original's workflow.json, and where the original's orchestrator leaves each
 * issue with the same replies. `ours` lists what climpt adds on purpose (docs/compatibility.md).
 */
export const BATCH = {
  issues: [
    { number: 21, title: "How do I list as JSON?", labels: ["kind:consider"] },
    { number: 22, title: "Add a notes file", labels: ["kind:consider"] },
    { number: 23, title: "Make it better somehow", labels: ["kind:detail"] },
    { number: 24, title: "A request the model refuses", labels: ["kind:consider"] },
  ],
  plan: {
    "considerer#21": consider(21, "done"),
    "considerer#22": consider(22, "handoff-detail"),
    "detailer#22": detail(22, "handoff-impl"),
    "iterator#22": iterate(22),
    "detailer#23": detail(23, "blocked"),
    "considerer#24": [{ error: 400, message: "prompt is too long" }],
  },
  original: {
    21: { labels: ["done"], state: "CLOSED", comments: 1 },
    22: { labels: ["done"], state: "CLOSED", comments: 2, commit: "notes: issue #22" },
    23: { labels: ["need clearance"], state: "OPEN", comments: 1 },
    24: { labels: ["need clearance"], state: "OPEN", comments: 0 },
  },
  ours: {
    22: {
      comments: 2,
      why: "the handoff templates considererHandoffDetail / detailerHandoffImpl, which the original's lookup never matches",
    },
    24: { comments: 1, why: "a comment saying why the issue took the fallback (AC-MODEL-006)" },
  },
  agents: {
    21: ["considerer"],
    22: ["considerer", "detailer", "iterator"],
    23: ["detailer"],
    24: ["considerer"],
  },
};
