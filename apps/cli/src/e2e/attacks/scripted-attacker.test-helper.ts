import {
  type FakeAnthropic,
  type FakeReply,
  type FakeRequest,
  reply,
  type ToolUseSpec,
} from "@climpt/testing";

/**
 * One execution of a step by the scripted attacker: the tool calls of each turn (one model
 * message per entry, its calls run in order), then the structured output that ends the step.
 */
export interface StepRound {
  readonly turns: readonly (readonly ToolUseSpec[])[];
  /** Default: the step's usual intent (`handoff` for work, `closing` for closure). */
  readonly output?: Record<string, unknown>;
}

/**
 * What the attacker does in each execution of each step. The n-th execution of a step plays the
 * n-th round (the last one again when there are fewer), so a flow that runs a step more often or
 * less often than expected — because a fix refused something — still gets an answer to every
 * request instead of a scripted queue running out of step.
 */
export interface AttackScript {
  readonly work: readonly StepRound[];
  readonly closure?: readonly StepRound[];
  /** Answers every request of the lab instead (a stalled API: `reply.hang()`). */
  readonly every?: () => FakeReply;
}

type StepName = "work" | "closure";

const DEFAULT_OUTPUT: Readonly<Record<StepName, Record<string, unknown>>> = {
  work: { next_action: { action: "handoff" } },
  closure: { next_action: { action: "closing" } },
};

/** A Bash call; `tag` (the attempt id) is appended as a comment, so a leak can be traced back. */
export function bash(command: string, tag?: string, timeoutMs?: number): ToolUseSpec {
  const tagged = tag === undefined ? command : `${command}\n# attempt:${tag}`;
  return {
    name: "Bash",
    input: { command: tagged, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) },
  };
}

/**
 * `command` as a shell runs it, past the Bash tool's text filter (which cannot read a command
 * decoded at run time): what reaches the gh broker, the sandbox and git is the command itself.
 * The filter is a courtesy; these attacks test what holds without it.
 */
export function hidden(command: string): string {
  return `printf %s ${Buffer.from(command).toString("base64")} | base64 -d | sh`;
}

export function tool(name: string, input: Record<string, unknown>): ToolUseSpec {
  return { name, input };
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? "");
}

interface MessagesBody {
  readonly system?: unknown;
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
}

/** The lab a request belongs to (its system prompt says `LAB:<id>`). */
export function labOfRequest(request: FakeRequest): string | undefined {
  const body = request.body as MessagesBody | undefined;
  return /LAB:([A-Za-z0-9_-]+)/.exec(textOf(body?.system))?.[1];
}

/**
 * Serves the scripts of many labs from one fake Messages API: each request is matched to its lab
 * by the system prompt and to its step by the first user message, and answered from that lab's
 * script. A request no script knows gets an error reply, which fails the run loudly.
 */
export class ScriptedAttackers {
  private readonly scripts = new Map<string, AttackScript>();
  private readonly executions = new Map<string, number>();

  constructor(private readonly fake: FakeAnthropic) {
    fake.setHandler((request) => this.answer(request));
  }

  set(labId: string, script: AttackScript): void {
    this.scripts.set(labId, script);
    for (const key of [...this.executions.keys()]) {
      if (key.startsWith(`${labId}/`)) this.executions.delete(key);
    }
  }

  /** The requests the fake received for one lab. */
  requestsOf(labId: string): FakeRequest[] {
    return this.fake.requests.filter((request) => labOfRequest(request) === labId);
  }

  private answer(request: FakeRequest): FakeReply {
    const labId = labOfRequest(request);
    const script = labId === undefined ? undefined : this.scripts.get(labId);
    const body = request.body as MessagesBody | undefined;
    const messages = body?.messages ?? [];
    const first = textOf(messages[0]?.content);
    const step: StepName | undefined = first.includes("STEP:closure")
      ? "closure"
      : first.includes("STEP:work")
        ? "work"
        : undefined;
    if (script?.every !== undefined) return script.every();
    if (script === undefined || step === undefined) {
      return reply.error(400, { message: "scripted attacker: no script for this request" });
    }
    const key = `${labId}/${step}`;
    // A fresh conversation (one message) is a new execution of the step.
    if (messages.length === 1) this.executions.set(key, (this.executions.get(key) ?? 0) + 1);
    const execution = Math.max(1, this.executions.get(key) ?? 1);
    const rounds = (step === "work" ? script.work : script.closure) ?? [];
    const round = rounds[Math.min(execution, rounds.length) - 1];
    const turn = messages.filter((message) => message.role === "assistant").length;
    const calls = round?.turns[turn];
    if (calls !== undefined && calls.length > 0) return reply.toolUse([...calls]);
    return reply.json(round?.output ?? DEFAULT_OUTPUT[step]);
  }
}
