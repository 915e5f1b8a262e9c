/**
 * The HTTP header climpt's model client sends with every Messages API request: the id of the step
 * that asks. The API ignores headers it does not know; a mock (`climpt mock`, @climpt/mock)
 * answers by it. Here, below both, so the client and the mock agree on one name.
 */
export const STEP_HEADER = "x-climpt-step";
