import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.ts";
import { createMockMatcher, type MockServed } from "./match-request.ts";
import type { MockScript } from "./mock-script.ts";

export interface StartMockOptions {
  /** A checked script: `loadMockScript` / `parseMockScript`. */
  readonly script: MockScript;
  /** Default 0: the OS picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: the mock is for this machine only. */
  readonly host?: string;
  /** Hears of each request as it is answered, with the rule that answered it. */
  readonly onServed?: (served: MockServed) => void;
  /**
   * Keep each request and what answered it in `served` and `server.requests` (default true);
   * a long-lived server passes false and reads `onServed` instead.
   */
  readonly keepHistory?: boolean;
}

export interface RunningMock {
  /** The base URL for the SDK: `ANTHROPIC_BASE_URL`, or `baseURL`. */
  readonly url: string;
  /** Every model request, with the rule that answered it. */
  readonly served: readonly MockServed[];
  /** The server underneath, with every request it received. */
  readonly server: FakeAnthropic;
  /** Stop listening and cut open connections. */
  close(): Promise<void>;
}

/** Serve a mock script on a loopback port until `close()`. */
export async function startMock(options: StartMockOptions): Promise<RunningMock> {
  const server = await startFakeAnthropic({
    ...(options.port === undefined ? {} : { port: options.port }),
    host: options.host ?? "127.0.0.1",
    recordRequests: options.keepHistory !== false,
  });
  const matcher = createMockMatcher(options.script, {
    ...(options.onServed === undefined ? {} : { onServed: options.onServed }),
    keep: options.keepHistory !== false,
  });
  server.setHandler(matcher.handler);
  return {
    url: server.url,
    served: matcher.served,
    server,
    close: () => server.close(),
  };
}
