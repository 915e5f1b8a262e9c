import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { isRecord } from "@climpt/model";
import {
  errorMessageFor,
  errorTypeFor,
  type FakeCutStreamReply,
  type FakeErrorReply,
  type FakeMessageReply,
  type FakeReply,
  isRetryableStatus,
} from "./replies.ts";
import { PromptCache } from "./token-count.ts";
import { messagesRequestProblem } from "./validate-request.ts";
import {
  defaultStopReason,
  formatSse,
  streamEvents,
  type WireMessage,
  wireContent,
  wireUsage,
} from "./wire.ts";

/** One request as the fake received it. */
export interface FakeRequest {
  /** 1-based, in arrival order. */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  readonly body: unknown;
  readonly rawBody: string;
  /**
   * How the response went, filled in as it happens: its status once sent, and `completed` once
   * all of it was written. A client that died (or aborted) mid-response leaves `completed`
   * false, so a test can tell a completed call from one that was cut off.
   */
  readonly response: { status: number | null; completed: boolean };
}

/** Decides the reply to a request the queue had nothing for; undefined falls through to the default. */
export type FakeHandler = (
  request: FakeRequest,
) => FakeReply | undefined | Promise<FakeReply | undefined>;

export interface FakeAnthropicOptions {
  /** Default 0: the OS picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Characters per text_delta / input_json_delta event. Default 24. */
  readonly chunkSize?: number;
  /** Prefixes shorter than this are not cached, like the API's minimum. Default 0. */
  readonly minCacheableTokens?: number;
  /**
   * Keep every request in `requests` (default true). A long-lived server (`climpt mock`) passes
   * false, so a day of CI runs does not pile up every prompt in memory.
   */
  readonly recordRequests?: boolean;
}

export interface FakeAnthropic {
  /** The base URL to give the SDK (`baseURL` or `ANTHROPIC_BASE_URL`), without a trailing slash. */
  readonly url: string;
  /** Every request received, in order, including count_tokens and unknown paths. */
  readonly requests: readonly FakeRequest[];
  /** Only the `POST /v1/messages` requests, in order. */
  readonly messageRequests: () => readonly FakeRequest[];
  /** Queue replies; each `POST /v1/messages` takes the next one. */
  enqueue(...replies: FakeReply[]): void;
  /** Consulted when the queue is empty. Pass undefined to remove. */
  setHandler(handler: FakeHandler | undefined): void;
  /** Replies still queued. */
  pending(): number;
  /** Forget queued replies, recorded requests and the prompt cache. */
  reset(): void;
  /** Stop listening and cut every open connection (hanging requests included). */
  close(): Promise<void>;
}

function headerRecord(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (chunk: Buffer) => parts.push(chunk));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A fake Anthropic Messages API on a loopback port, speaking the wire format of
 * @anthropic-ai/sdk 1.12: JSON and SSE replies, real error bodies, request ids, pseudo token
 * counts and prompt-cache accounting. Tests script it with a queue of replies and/or a handler,
 * and read back every request it received.
 */
export async function startFakeAnthropic(
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const chunkSize = options.chunkSize ?? 24;
  const cache = new PromptCache(
    options.minCacheableTokens === undefined
      ? {}
      : { minCacheableTokens: options.minCacheableTokens },
  );
  const requests: FakeRequest[] = [];
  const queue: FakeReply[] = [];
  let handler: FakeHandler | undefined;
  let requestCounter = 0;
  let received = 0;
  let messageCounter = 0;
  let toolCounter = 0;
  const sockets = new Set<Socket>();

  const nextToolId = (): string => `toolu_fake_${String(++toolCounter).padStart(4, "0")}`;

  function sendJson(
    response: ServerResponse,
    status: number,
    body: unknown,
    requestId: string,
    extraHeaders: Readonly<Record<string, string>> = {},
  ): void {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "request-id": requestId,
      ...extraHeaders,
    });
    response.end(text);
  }

  function sendError(response: ServerResponse, reply: FakeErrorReply, requestId: string): void {
    const type = reply.type ?? errorTypeFor(reply.status);
    const headers: Record<string, string> = { ...(reply.headers ?? {}) };
    const retryAfterMs = reply.retryAfterMs ?? (isRetryableStatus(reply.status) ? 1 : undefined);
    if (retryAfterMs !== undefined) headers["retry-after-ms"] = String(retryAfterMs);
    const retryAfter = reply.retryAfter ?? (reply.status === 429 ? 1 : undefined);
    if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
    sendJson(
      response,
      reply.status,
      {
        type: "error",
        error: { type, message: reply.message ?? errorMessageFor(type) },
        request_id: requestId,
      },
      requestId,
      headers,
    );
  }

  function buildMessage(
    body: Record<string, unknown>,
    reply: FakeMessageReply | FakeCutStreamReply,
  ): WireMessage {
    const content = wireContent(reply.content, nextToolId);
    const stopReason =
      reply.kind === "message"
        ? (reply.stopReason ?? defaultStopReason(reply.content))
        : defaultStopReason(reply.content);
    const override = reply.kind === "message" ? reply.usage : undefined;
    return {
      id: `msg_fake_${String(++messageCounter).padStart(4, "0")}`,
      type: "message",
      role: "assistant",
      model: (reply.kind === "message" ? reply.model : undefined) ?? String(body.model),
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details:
        stopReason === "refusal" ? { type: "refusal", category: null, explanation: null } : null,
      container: null,
      diagnostics: null,
      usage: wireUsage(cache.account(body), content, override),
    };
  }

  function sendMessage(
    response: ServerResponse,
    body: Record<string, unknown>,
    reply: FakeMessageReply,
    requestId: string,
  ): void {
    const message = buildMessage(body, reply);
    const headers = reply.headers ?? {};
    if (body.stream !== true) {
      sendJson(response, 200, message, requestId, headers);
      return;
    }
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": requestId,
      ...headers,
    });
    response.end(streamEvents(message, chunkSize).map(formatSse).join(""));
  }

  function sendCut(
    response: ServerResponse,
    body: Record<string, unknown>,
    reply: FakeCutStreamReply,
    requestId: string,
  ): void {
    const message = buildMessage(body, reply);
    if (body.stream === true) {
      response.writeHead(200, { "content-type": "text/event-stream", "request-id": requestId });
      const events = streamEvents(message, chunkSize).slice(0, reply.afterEvents ?? 3);
      response.write(events.map(formatSse).join(""));
    } else {
      const text = JSON.stringify(message);
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        "request-id": requestId,
      });
      response.write(text.slice(0, Math.floor(text.length / 2)));
    }
    if (reply.stall === true) return;
    // Let the partial write reach the client, then drop the connection mid-response.
    setTimeout(() => response.socket?.destroy(), 5);
  }

  function sendMalformed(
    response: ServerResponse,
    body: Record<string, unknown>,
    text: string | undefined,
    requestId: string,
  ): void {
    if (body.stream === true) {
      response.writeHead(200, { "content-type": "text/event-stream", "request-id": requestId });
      response.end(
        `event: message_start\ndata: ${text ?? '{"type":"message_start","message":'}\n\n`,
      );
      return;
    }
    const payload = text ?? '{"id":"msg_fake","type":"message","content":[{"type":"text",';
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(payload),
      "request-id": requestId,
    });
    response.end(payload);
  }

  async function nextReply(request: FakeRequest): Promise<FakeReply> {
    const queued = queue.shift();
    if (queued !== undefined) return queued;
    const handled = handler === undefined ? undefined : await handler(request);
    if (handled !== undefined) return handled;
    return {
      kind: "error",
      status: 500,
      type: "api_error",
      message: `fake-anthropic: no scripted reply for request #${request.index} (queue empty, no handler)`,
      // A missing script is a test bug: tell the SDK not to retry it.
      headers: { "x-should-retry": "false" },
    };
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(incoming);
    const url = new URL(incoming.url ?? "/", "http://fake");
    const request: FakeRequest = {
      index: ++received,
      method: incoming.method ?? "GET",
      path: url.pathname,
      headers: headerRecord(incoming),
      body: parseJson(rawBody),
      rawBody,
      response: { status: null, completed: false },
    };
    if (options.recordRequests !== false) requests.push(request);
    response.on("finish", () => {
      request.response.status = response.statusCode;
      request.response.completed = true;
    });
    response.on("close", () => {
      if (!request.response.completed && response.headersSent) {
        request.response.status = response.statusCode;
      }
    });
    const requestId = `req_fake_${String(++requestCounter).padStart(6, "0")}`;
    const body = request.body;

    if (request.method === "POST" && request.path === "/v1/messages/count_tokens") {
      const problem = messagesRequestProblem(body, true);
      if (problem !== undefined || !isRecord(body)) {
        sendError(response, { kind: "error", status: 400, message: problem }, requestId);
        return;
      }
      sendJson(response, 200, { input_tokens: cache.count(body) }, requestId);
      return;
    }
    if (request.method !== "POST" || request.path !== "/v1/messages") {
      sendError(
        response,
        { kind: "error", status: 404, message: `Not found: ${request.method} ${request.path}` },
        requestId,
      );
      return;
    }
    const problem = messagesRequestProblem(body);
    if (problem !== undefined || !isRecord(body)) {
      sendError(response, { kind: "error", status: 400, message: problem }, requestId);
      return;
    }

    const reply = await nextReply(request);
    switch (reply.kind) {
      case "message":
        if (reply.delayMs !== undefined && reply.delayMs > 0) await sleep(reply.delayMs);
        sendMessage(response, body, reply, requestId);
        return;
      case "error":
        sendError(response, reply, requestId);
        return;
      case "hang":
        // Keep the socket open; the client's timeout or abort ends it, or close() does.
        return;
      case "cut-stream":
        sendCut(response, body, reply, requestId);
        return;
      case "malformed":
        sendMalformed(response, body, reply.body, requestId);
        return;
    }
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendError(
          response,
          { kind: "error", status: 500, message: `fake-anthropic failed: ${String(error)}` },
          "req_fake_failure",
        );
      } else {
        response.destroy();
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    requests,
    messageRequests: () =>
      requests.filter((request) => request.method === "POST" && request.path === "/v1/messages"),
    enqueue(...replies) {
      queue.push(...replies);
    },
    setHandler(next) {
      handler = next;
    },
    pending: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
      received = 0;
      cache.clear();
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
    },
  };
}
