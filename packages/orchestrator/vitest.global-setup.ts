import { ensureDebianPackages } from "@climpt/testing";

/** The Redis state store, limiter and fleet tests start a private redis-server. */
export function setup(): void {
  ensureDebianPackages(["redis-server"], ["redis-server"]);
}
