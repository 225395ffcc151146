// Caps that keep any input, however large or hostile, to a bounded amount of work. Each one that is hit
// becomes a `too_large` error naming it, never a hang or a crash.

/** Characters of text (about 1 MB of ASCII). Longer input is refused before parsing. */
export const MAX_TEXT_CHARS = 1_000_000;
/** Non-empty JSONL lines checked; later lines are reported as unchecked. */
export const MAX_LINES = 1_000;
/** Messages in one trajectory. */
export const MAX_MESSAGES = 200;
/** Tool definitions in one trajectory. */
export const MAX_TOOLS = 128;
/** Tool calls in one assistant message. */
export const MAX_TOOL_CALLS = 32;
/** Nesting of arrays and objects, in the input and inside each arguments string. */
export const MAX_DEPTH = 32;
/** Arrays, objects and values in an object given directly (not as text). */
export const MAX_NODES = 200_000;
/** Errors listed; the rest are summarised by code. */
export const MAX_ERRORS = 100;

export const fmt = (n: number) => n.toLocaleString('en-US');
