export { unknownStepProblems } from "./check-steps.ts";
export { MOCK_CODES, type MockCode } from "./codes.ts";
export {
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type FakeHandler,
  type FakeRequest,
  startFakeAnthropic,
} from "./fake-anthropic.ts";
export {
  createMockMatcher,
  type MockMatcher,
  type MockRequestFacts,
  type MockServed,
  mismatches,
  noMatchMessage,
  replyOf,
  requestFacts,
} from "./match-request.ts";
export {
  loadMockScript,
  MAX_DELAY_MS,
  type MockAnswer,
  type MockError,
  type MockRule,
  type MockScript,
  type MockToolCall,
  type MockTurn,
  parseMockScript,
} from "./mock-script.ts";
export {
  type ErrorReplyOptions,
  type FakeContentBlock,
  type FakeCutStreamReply,
  type FakeErrorReply,
  type FakeHangReply,
  type FakeMalformedReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeStopReason,
  type FakeUsageOverride,
  type MessageReplyOptions,
  reply,
  type ToolUseSpec,
} from "./replies.ts";
export { type RunningMock, type StartMockOptions, startMock } from "./start-mock.ts";
export { type PromptAccounting, PromptCache, pseudoTokens } from "./token-count.ts";
