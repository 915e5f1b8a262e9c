/**
 * The same chains as LangGraph.js `StateGraph`s: one node per step, each returning the fixed
 * output a step of the climpt chain gets from the instant model (its intent and its handoff),
 * and a conditional edge per node on the intent (`next`/`handoff` → the following node,
 * `repeat` → itself, `closing` → END). The state carries the intent, the output and the handoff
 * by step id, as the climpt run state does.
 */
import {
  Annotation,
  type BaseCheckpointSaver,
  END,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";

const ChainState = Annotation.Root({
  intent: Annotation<string>(),
  out: Annotation<string>(),
  handoff: Annotation<Record<string, Record<string, string>>>({
    reducer: (current, update) => ({ ...current, ...update }),
    default: () => ({}),
  }),
});

type ChainUpdate = typeof ChainState.Update;

export interface LangGraphChain {
  /** Runs the chain once, from the first node to END. */
  run(threadId: string): Promise<void>;
}

/**
 * A compiled chain of `size` nodes (the last is the closure). `onNode` sees the moment each node
 * starts; with `checkpointer`, it stores a checkpoint after every superstep (`true`: a
 * `MemorySaver`; or the saver given, e.g. a `SqliteSaver`).
 */
export function buildLangGraphChain(
  size: number,
  options: {
    readonly checkpointer: boolean | BaseCheckpointSaver;
    readonly onNode?: (at: number) => void;
  },
): LangGraphChain {
  const names = Array.from({ length: size }, (_, index) =>
    index === size - 1 ? "closure_end" : `work_${index}`,
  );
  // The builder's types track node names; a generated graph has none to track.
  const graph = new StateGraph(ChainState) as unknown as StateGraph<typeof ChainState.spec>;
  const onNode = options.onNode;
  names.forEach((name, index) => {
    const intent = index === size - 1 ? "closing" : index === size - 2 ? "handoff" : "next";
    const update: ChainUpdate = {
      intent,
      out: `value of out`,
      handoff: { [name]: { out: "value of out" } },
    };
    graph.addNode(name, () => {
      onNode?.(performance.now());
      return update;
    });
  });
  const edges = graph as unknown as {
    addEdge(from: string, to: string): void;
    addConditionalEdges(
      from: string,
      route: (state: typeof ChainState.State) => string,
      targets: Record<string, string>,
    ): void;
  };
  edges.addEdge(START, names[0] as string);
  names.forEach((name, index) => {
    const targets: Record<string, string> =
      index === size - 1
        ? { closing: END, repeat: name }
        : {
            [index === size - 2 ? "handoff" : "next"]: names[index + 1] as string,
            repeat: name,
          };
    edges.addConditionalEdges(name, (state) => state.intent, targets);
  });
  const saver =
    options.checkpointer === true
      ? new MemorySaver()
      : options.checkpointer === false
        ? undefined
        : options.checkpointer;
  const compiled = graph.compile(saver === undefined ? {} : { checkpointer: saver });
  return {
    async run(threadId) {
      await compiled.invoke(
        { intent: "", out: "" },
        { recursionLimit: size + 10, configurable: { thread_id: threadId } },
      );
    },
  };
}

/**
 * LangGraph's durable checkpointer: a `SqliteSaver` (`@langchain/langgraph-checkpoint-sqlite`,
 * an optional dependency: better-sqlite3 builds from source) on a database file. The saver
 * turns on WAL mode, and better-sqlite3's build defaults WAL to `synchronous=NORMAL`, where a
 * commit is not fsynced (it survives a killed process, not a power cut: climpt's `fsync:false`).
 * Set to `FULL` here, so every checkpoint is on disk when `put` returns, as climpt's default
 * journal is. The reason instead, when the package cannot be loaded.
 */
export async function sqliteSaver(
  file: string,
): Promise<{ saver: BaseCheckpointSaver; close(): void } | { reason: string }> {
  try {
    const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
    const saver = SqliteSaver.fromConnString(file);
    saver.db.pragma("journal_mode = WAL");
    saver.db.pragma("synchronous = FULL");
    return { saver, close: () => saver.db.close() };
  } catch (error) {
    return { reason: (error as Error).message.split("\n")[0] ?? String(error) };
  }
}
