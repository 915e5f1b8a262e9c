/**
 * `node dist/chain-fake-server.mjs <delayMs>`: the chain's fake Messages API in its own process,
 * so a memory measurement of the runs counts the runs and not the server. Prints its URL on the
 * first stdout line and serves until stdin closes or a signal arrives.
 */
import { startChainFake } from "./chain-fake.ts";

const fake = await startChainFake(Number(process.argv[2] ?? 0));
process.stdout.write(`${fake.url}\n`);
const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.stdin.on("end", stop);
process.stdin.resume();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
