/**
 * Which rule of a mock script answers a request, and what it answers. A request is known by three
 * facts read from the request alone: the step that sent it (the `x-climpt-step` header climpt
 * sends), the step's prompt (the conversation's first user message) and the turn (how many
 * replies the conversation already holds). Because the turn comes from the request, a retried or
 * resumed request gets the same answer as the first time; only `failFirst` counts.
 */
import { editDistance, isRecord, STEP_HEADER } from "@climpt/model";
import { MOCK_CODES } from "./codes.ts";
import type { FakeHandler, FakeRequest } from "./fake-anthropic.ts";
import type { MockRule, MockScript, MockTurn } from "./mock-script.ts";
import { type FakeReply, reply } from "./replies.ts";

export interface MockRequestFacts {
  /** Undefined when the client sent no `x-climpt-step` header (not climpt, or an old one). */
  readonly step: string | undefined;
  /** The text of the conversation's first user message. */
  readonly prompt: string;
  /** Replies already in the conversation: 0 for a step's first request. */
  readonly turn: number;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block) => isRecord(block) && block.type === "text" && typeof block.text === "string")
    .map((block) => (block as { text: string }).text)
    .join("\n");
}

export function requestFacts(request: Pick<FakeRequest, "headers" | "body">): MockRequestFacts {
  const body = isRecord(request.body) ? request.body : {};
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const first = messages.find((message) => message.role === "user");
  const step = request.headers[STEP_HEADER];
  return {
    step: step === undefined || step === "" ? undefined : step,
    prompt: first === undefined ? "" : textOf(first.content),
    turn: messages.filter((message) => message.role === "assistant").length,
  };
}

/** Why a rule does not answer the request; empty when it does. */
export function mismatches(rule: MockRule, facts: MockRequestFacts): string[] {
  const reasons: string[] = [];
  if (rule.step !== undefined && rule.step !== facts.step) {
    reasons.push(`its step is "${rule.step}"`);
  }
  if (rule.prompt !== undefined && !facts.prompt.includes(rule.prompt)) {
    reasons.push(`the prompt does not contain its text ${JSON.stringify(excerpt(rule.prompt))}`);
  }
  if (rule.promptMatches !== undefined && !rule.promptMatches.test(facts.prompt)) {
    reasons.push(`the prompt does not match its promptMatches /${rule.promptMatches.source}/`);
  }
  if (facts.turn >= rule.turns.length) {
    reasons.push(
      `it has ${rule.turns.length} turn${rule.turns.length === 1 ? "" : "s"} and this is turn ${facts.turn} (the conversation already holds ${facts.turn} repl${facts.turn === 1 ? "y" : "ies"}: add a turn, or check why the step asked again)`,
    );
  }
  return reasons;
}

function excerpt(text: string, length = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}

function describeRule(rule: MockRule): string {
  const name = rule.name === undefined ? "" : ` "${rule.name}"`;
  return `${rule.path}${name}`;
}

/** The rule that came closest: fewest failed conditions, then the nearest step id, then the first. */
function closestRule(
  rules: readonly MockRule[],
  facts: MockRequestFacts,
): { rule: MockRule; reasons: string[] } | undefined {
  let best: { rule: MockRule; reasons: string[]; distance: number } | undefined;
  for (const rule of rules) {
    const reasons = mismatches(rule, facts);
    const distance =
      rule.step === undefined || facts.step === undefined ? 0 : editDistance(rule.step, facts.step);
    if (
      best === undefined ||
      reasons.length < best.reasons.length ||
      (reasons.length === best.reasons.length && distance < best.distance)
    ) {
      best = { rule, reasons, distance };
    }
  }
  return best;
}

/** The AC-MOCK-003 text for a request no rule answers: what was asked, and the closest rule. */
export function noMatchMessage(script: MockScript, facts: MockRequestFacts): string {
  const step =
    facts.step === undefined
      ? `a request without an ${STEP_HEADER} header (not sent by climpt?)`
      : `step "${facts.step}"`;
  const asked = `${step}, turn ${facts.turn} (prompt ${JSON.stringify(excerpt(facts.prompt))})`;
  const closest = closestRule(script.rules, facts);
  const fix =
    facts.step === undefined
      ? `Add a rule whose "prompt" is text of this prompt.`
      : `Add a rule { "step": "${facts.step}", … } for it, or correct the closest rule.`;
  const near =
    closest === undefined
      ? "The script has no rules."
      : `The closest rule is ${describeRule(closest.rule)}: ${closest.reasons.join("; ")}.`;
  return `${MOCK_CODES.noMatch} No rule of ${script.file} answers ${asked}. ${near} Fix: ${fix}`;
}

/** The fake server's reply for one turn's answer (its error, or what the model says). */
export function replyOf(turn: MockTurn): FakeReply {
  const answer = turn.answer;
  const delay = turn.delayMs === undefined ? {} : { delayMs: turn.delayMs };
  switch (answer.kind) {
    case "output":
      return reply.json(answer.output, delay);
    case "text":
      return reply.text(answer.text, delay);
    case "toolCalls":
      return reply.toolUse(answer.calls, {
        ...delay,
        ...(answer.text === undefined ? {} : { text: answer.text }),
      });
    case "error":
      return reply.error(answer.error.status, {
        ...(answer.error.type === undefined ? {} : { type: answer.error.type }),
        ...(answer.error.message === undefined ? {} : { message: answer.error.message }),
      });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** One request the script answered (or did not), in arrival order. */
export interface MockServed {
  readonly index: number;
  readonly facts: MockRequestFacts;
  /** The answering rule's path; undefined when none answered (AC-MOCK-003). */
  readonly rule: string | undefined;
  /** What went back: `output`, `text`, `toolCalls`, `error` (scripted or failFirst), `no-match`. */
  readonly answered: string;
  /** For `no-match`: the AC-MOCK-003 message the client got. */
  readonly problem?: string;
}

export interface MockMatcher {
  readonly handler: FakeHandler;
  readonly served: readonly MockServed[];
}

/**
 * A handler for `startFakeAnthropic` that answers every request from the script; `onServed`
 * hears of each request as it is answered (`climpt mock` prints it), and `keep: false` keeps no
 * list of them.
 */
export function createMockMatcher(
  script: MockScript,
  options: {
    readonly onServed?: (served: MockServed) => void;
    /** Keep each entry in `served` (default true). */
    readonly keep?: boolean;
  } = {},
): MockMatcher {
  const list: MockServed[] = [];
  const served = {
    push(entry: MockServed): void {
      if (options.keep !== false) list.push(entry);
      options.onServed?.(entry);
    },
  };
  const failures = new Map<MockTurn, number>();
  const handler: FakeHandler = async (request) => {
    const facts = requestFacts(request);
    const rule = script.rules.find((candidate) => mismatches(candidate, facts).length === 0);
    const turn = rule?.turns[facts.turn];
    if (rule === undefined || turn === undefined) {
      const message = noMatchMessage(script, facts);
      served.push({
        index: request.index,
        facts,
        rule: undefined,
        answered: "no-match",
        problem: message,
      });
      return reply.error(400, {
        type: "invalid_request_error",
        message,
        // A script without an answer is not fixed by asking again.
        headers: { "x-should-retry": "false" },
      });
    }
    const failed = failures.get(turn) ?? 0;
    if (turn.failFirst !== undefined && failed < turn.failFirst.times) {
      failures.set(turn, failed + 1);
      served.push({ index: request.index, facts, rule: rule.path, answered: "error" });
      if (turn.delayMs !== undefined) await sleep(turn.delayMs);
      const { status, type, message } = turn.failFirst;
      return reply.error(status, {
        ...(type === undefined ? {} : { type }),
        ...(message === undefined ? {} : { message }),
      });
    }
    served.push({ index: request.index, facts, rule: rule.path, answered: turn.answer.kind });
    // A message reply waits in the server (delayMs); an error reply has no delay of its own.
    if (turn.answer.kind === "error" && turn.delayMs !== undefined) await sleep(turn.delayMs);
    return replyOf(turn);
  };
  return { handler, served: list };
}
