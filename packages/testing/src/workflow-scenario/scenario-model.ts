import type { FakeHandler, FakeRequest } from "@climpt/mock";
import { type FakeReply, reply } from "@climpt/mock";

/** The replies of every run of one agent on one issue, in order (runs are sequential per key). */
export type AgentScript = Readonly<Record<string, readonly FakeReply[]>>;

export interface ServedCall {
  /** `<agent>#<issue>` */
  readonly key: string;
  /** Position of the reply in the key's script. */
  readonly index: number;
  readonly requestIndex: number;
  /** The same request came again (a resumed run asking what it asked before). */
  readonly repeat: boolean;
}

export interface SlowCall {
  readonly key: string;
  readonly index: number;
  readonly delayMs: number;
}

function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? "");
}

/** `<agent>#<issue>` of a request: the agent from the system prompt, the issue from the first message. */
export function requestKey(request: FakeRequest): string | null {
  const body = request.body as { system?: unknown; messages?: { content?: unknown }[] } | undefined;
  const agent = /You are the ([a-z-]+) agent/.exec(textOf(body?.system))?.[1];
  const issue = /Issue #(\d+)/.exec(textOf(body?.messages?.[0]?.content))?.[1];
  return agent === undefined || issue === undefined ? null : `${agent}#${issue}`;
}

/** What makes two requests the same call: the prompt and the conversation so far. */
function identity(request: FakeRequest): string {
  const body = request.body as { system?: unknown; messages?: unknown } | undefined;
  return JSON.stringify([body?.system, body?.messages]);
}

/**
 * The fake model of a workflow scenario: each request is answered from the script of its agent
 * and issue, so runs of many issues can interleave in any order. Runs of one agent on one issue
 * follow each other, so their replies are one list per key, taken in order. The one exception:
 * a request identical to the key's previous one whose response never completed (a worker killed,
 * or a run stopped, while it waited) is the resumed run asking that call again, and gets the
 * same reply.
 */
export class ScenarioModel {
  readonly served: ServedCall[] = [];
  readonly #next = new Map<string, number>();
  readonly #last = new Map<string, { identity: string; index: number; request: FakeRequest }>();

  constructor(
    readonly script: AgentScript,
    readonly slow: readonly SlowCall[] = [],
  ) {}

  /** Model calls the script holds: what a run of the scenario makes when nothing is repeated. */
  get scriptedCalls(): number {
    return Object.values(this.script).reduce((sum, replies) => sum + replies.length, 0);
  }

  readonly handler: FakeHandler = (request) => {
    const key = requestKey(request);
    if (key === null)
      return reply.error(400, { message: "scenario: a request names no agent or issue" });
    const id = identity(request);
    const last = this.#last.get(key);
    const again = last !== undefined && last.identity === id && !last.request.response.completed;
    const index = again ? last.index : (this.#next.get(key) ?? 0);
    if (!again) this.#next.set(key, index + 1);
    this.#last.set(key, { identity: id, index, request });
    this.served.push({ key, index, requestIndex: request.index, repeat: again });
    const scripted = this.script[key]?.[index];
    if (scripted === undefined) {
      return reply.error(400, { message: `scenario: no reply ${index} for ${key}` });
    }
    const slow = again
      ? undefined
      : this.slow.find((call) => call.key === key && call.index === index);
    if (slow !== undefined && scripted.kind === "message")
      return { ...scripted, delayMs: slow.delayMs };
    return scripted;
  };

  /**
   * Model calls made beyond the script, not counting calls asked again because their first
   * response was cut off: a run resumed after a crash that asked a completed call again shows
   * here. Counted per agent and issue, over the keys that were asked at all.
   */
  repeatedCompletedCalls(requests: readonly FakeRequest[]): number {
    const completed = new Map<string, number>();
    for (const request of requests) {
      if (request.path !== "/v1/messages" || !request.response.completed) continue;
      const key = requestKey(request);
      if (key !== null) completed.set(key, (completed.get(key) ?? 0) + 1);
    }
    let repeated = 0;
    for (const [key, count] of completed) {
      repeated += Math.max(0, count - (this.script[key]?.length ?? 0));
    }
    return repeated;
  }
}
