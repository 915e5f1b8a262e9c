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
  });
  const matcher = createMockMatcher(options.script, options.onServed);
  server.setHandler(matcher.handler);
  return {
    url: server.url,
    served: matcher.served,
    server,
    close: () => server.close(),
  };
}
