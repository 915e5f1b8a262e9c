import type { LoadedAgent } from "@climpt/model";
import { agentOf, registryOf } from "@climpt/model/testing";
import { describe, expect, it } from "vitest";
import type { DispatchRequest } from "./dispatcher.ts";
import { argumentsOf } from "./issue-inputs.ts";

function loaded(parameters: LoadedAgent["agent"]["parameters"]): LoadedAgent {
  return {
    dir: "/agents/a",
    agent: agentOf({ parameters }),
    registry: registryOf([]),
    files: { agent: "/agents/a/agent.json", registry: "/agents/a/steps_registry.json" },
  };
}

const request: Pick<DispatchRequest, "issue" | "payload"> = {
  issue: { repo: "o/r", number: 34, title: "t" },
  payload: { ticket: 1, note: "n", issue: 9 },
};

describe("argumentsOf: the dispatched issue goes to the agent's issue parameter", () => {
  it("is the parameter with role issue, whatever its name; a payload key of that name loses", () => {
    const args = argumentsOf(
      loaded({
        ticket: { name: "ticket", type: "string", required: true, cli: "--ticket", role: "issue" },
        note: { name: "note", type: "string", required: false, cli: "--note" },
      }),
      request,
    );
    expect(args).toEqual({ ticket: "34", note: "n" });
  });

  it("without a role, the parameter named issue, as in the original", () => {
    const args = argumentsOf(
      loaded({ issue: { name: "issue", type: "number", required: true, cli: "--issue" } }),
      request,
    );
    expect(args).toEqual({ issue: 34 });
  });
});
