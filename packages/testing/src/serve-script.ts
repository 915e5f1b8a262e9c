import { appendFile } from "node:fs/promises";
import { type FakeAnthropic, startFakeAnthropic } from "@climpt/mock";
import { loadFakeScript } from "./script-file.ts";

/** Headers that carry credentials: never written anywhere. */
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization"]);

export interface ServeScriptOptions {
  readonly scriptPath: string;
  readonly port?: number;
  readonly host?: string;
  /** Append every received request (method, path, headers minus credentials, body) as JSON lines. */
  readonly requestsLog?: string;
}

export interface ServedScript {
  readonly fake: FakeAnthropic;
  /** Write the requests not yet logged, then stop the server. */
  stop(): Promise<void>;
}

/** What the `climpt-fake-anthropic` CLI does, as a function: load a script and serve it. */
export async function serveFakeScript(options: ServeScriptOptions): Promise<ServedScript> {
  const script = await loadFakeScript(options.scriptPath);
  const fake = await startFakeAnthropic({
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  fake.enqueue(...script.replies);
  const fallback = script.fallback;
  if (fallback !== undefined) fake.setHandler(() => fallback);

  const log = options.requestsLog;
  let written = 0;
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (log === undefined) return;
      while (written < fake.requests.length) {
        const request = fake.requests[written++];
        if (request === undefined) break;
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(([name]) => !SECRET_HEADERS.has(name)),
        );
        const line = {
          index: request.index,
          method: request.method,
          path: request.path,
          headers,
          body: request.body,
        };
        await appendFile(log, `${JSON.stringify(line)}\n`);
      }
    });
    return flushing;
  };
  const timer = log === undefined ? undefined : setInterval(() => void flush(), 20);
  timer?.unref();

  return {
    fake,
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      await flush();
      await fake.close();
    },
  };
}
