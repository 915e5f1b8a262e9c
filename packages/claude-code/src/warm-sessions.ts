import { startup, type WarmQuery } from "@anthropic-ai/claude-agent-sdk";
import type { ClaudeCodeSettings } from "./claude-code-settings.ts";
import {
  type ClaimedSession,
  type PhaseSpec,
  phaseFingerprint,
  planSession,
  type SessionPlan,
} from "./session-plan.ts";

/** How long a pre-started session may take to start, and to wait unclaimed. */
export interface WarmSessionLimits {
  /** Start-up of the pre-started process (the SDK's `initializeTimeoutMs`). Default 60 s. */
  readonly startTimeoutMs?: number;
  /** A pre-started session nobody claimed within this is closed. Default 120 s. */
  readonly idleMs?: number;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_MS = 120_000;

interface Parked {
  readonly fingerprint: string;
  readonly plan: Promise<SessionPlan | undefined>;
  readonly warm: Promise<WarmQuery | undefined>;
  readonly idle: NodeJS.Timeout;
  readonly detach: () => void;
}

/**
 * At most one Claude Code session started ahead of the step it is for (the SDK's `startup()`:
 * the process spawned, initialised and its options — the NEXT step's policy — fixed, waiting for
 * the prompt). A step claims it only when its own fingerprint (`phaseFingerprint`, computed when
 * the step starts) equals the one it was started with; any other step closes it and starts
 * cold, so a wrong guess costs CPU, never a different policy.
 *
 * An unclaimed session is closed when another is pre-started, when the step that started it is
 * aborted (the run's signal), after `idleMs`, and by `close()`. Its process also ends by itself
 * when this process dies: it waits on its stdin, which closes with us.
 */
export class WarmSessions {
  #parked: Parked | undefined;
  readonly #settings: ClaudeCodeSettings;
  readonly #startTimeoutMs: number;
  readonly #idleMs: number;

  constructor(settings: ClaudeCodeSettings, limits: WarmSessionLimits = {}) {
    this.#settings = settings;
    this.#startTimeoutMs = limits.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.#idleMs = limits.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** The fingerprint of the session waiting now, if any. */
  get parkedFingerprint(): string | undefined {
    return this.#parked?.fingerprint;
  }

  /**
   * Starts a session for `spec` ahead of its step (replacing one started for another spec).
   * Never throws: a session that cannot be planned or started is simply not there to claim.
   */
  prestart(spec: PhaseSpec, signal?: AbortSignal): void {
    let fingerprint: string;
    try {
      fingerprint = phaseFingerprint(spec);
    } catch {
      return;
    }
    if (this.#parked?.fingerprint === fingerprint) return;
    this.close();
    if (signal?.aborted === true) return;
    const plan = planSession(this.#settings, spec).then(
      async (built) => {
        // The agent's own MCP servers stay per step: they are not started for a guess.
        if (!built.hasAgentServers) return built;
        await built.release();
        return undefined;
      },
      () => undefined,
    );
    const warm = plan.then(async (built) => {
      if (built === undefined) return undefined;
      try {
        return await startup({ options: built.options, initializeTimeoutMs: this.#startTimeoutMs });
      } catch {
        return undefined;
      }
    });
    const onAbort = (): void => {
      if (this.#parked?.fingerprint === fingerprint) this.close();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const idle = setTimeout(onAbort, this.#idleMs);
    idle.unref();
    this.#parked = {
      fingerprint,
      plan,
      warm,
      idle,
      detach: () => {
        clearTimeout(idle);
        signal?.removeEventListener("abort", onAbort);
      },
    };
  }

  /**
   * The pre-started session for `spec` when there is one with the same fingerprint and it
   * started (waiting for its start-up, which `startTimeoutMs` bounds, and no longer than until
   * `signal` aborts); otherwise undefined, and a session started for another spec is closed.
   */
  async claim(spec: PhaseSpec, signal?: AbortSignal): Promise<ClaimedSession | undefined> {
    const parked = this.#parked;
    if (parked === undefined) return undefined;
    let fingerprint: string | undefined;
    try {
      fingerprint = phaseFingerprint(spec);
    } catch {
      fingerprint = undefined;
    }
    if (fingerprint !== parked.fingerprint) {
      this.close();
      return undefined;
    }
    this.#parked = undefined;
    parked.detach();
    let onAbort = (): void => undefined;
    const aborted = new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      if (signal?.aborted === true) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    const started = await Promise.race([Promise.all([parked.plan, parked.warm]), aborted]);
    signal?.removeEventListener("abort", onAbort);
    if (started === "aborted") {
      void parked.plan.then((plan) => plan?.abortController.abort());
      void parked.warm.then((warm) => warm?.close());
      return undefined;
    }
    const [plan, warm] = started;
    if (plan === undefined || warm === undefined) {
      warm?.close();
      plan?.abortController.abort();
      return undefined;
    }
    return { plan, warm };
  }

  /** Closes the session waiting unclaimed, if any (its process ends). */
  close(): void {
    const parked = this.#parked;
    if (parked === undefined) return;
    this.#parked = undefined;
    parked.detach();
    void parked.plan.then((plan) => plan?.abortController.abort());
    void parked.warm.then((warm) => warm?.close());
  }
}
