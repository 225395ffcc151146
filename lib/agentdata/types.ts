// What the trajectory validator accepts and returns. The input is OpenAI's chat format: a `tools` list
// of function schemas and a `messages` list whose assistant turns may carry `tool_calls`, each answered
// by a `tool` turn with the same `tool_call_id`.

export type TrajectoryErrorCode =
  | 'invalid_json'
  | 'invalid_shape'
  | 'unknown_tool'
  | 'bad_arguments'
  | 'missing_tool_result'
  | 'orphan_tool_result'
  | 'after_final_answer'
  | 'empty_turn'
  /** A size cap (text, lines, messages, nesting, ...) was hit; the message names the cap. */
  | 'too_large';

export interface TrajectoryError {
  /** 1-based line of the record in JSONL input (or of a JSON syntax error); absent for a single object. */
  line?: number;
  /** Where in the record, e.g. `messages[2].tool_calls[0].function.arguments.expression`; '' for the whole input. */
  path: string;
  code: TrajectoryErrorCode;
  message: string;
}

export interface ToolDefinition {
  name: string;
  /** The JSON Schema of the arguments; `{}` when the tool declares none. */
  parameters: unknown;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The parsed arguments object (the format sends it as a JSON string; an object is accepted too). */
  arguments: Record<string, unknown>;
}

export type Message =
  | { role: 'system' | 'developer' | 'user'; content: string }
  /**
   * `loss: false` marks an assistant turn that is not the model's own work (AgentInstruct's flag: a scripted "OK, I'll
   * follow your instructions" reply or a one-shot example the collection prompt inserted). Absent means true.
   */
  | { role: 'assistant'; content: string; toolCalls: ToolCall[]; loss?: boolean }
  | { role: 'tool'; toolCallId: string; content: string };

/** A trajectory that passed every check, normalised: text parts joined, arguments parsed. */
export interface Trajectory {
  tools: ToolDefinition[];
  messages: Message[];
}

export interface ValidationResult {
  ok: boolean;
  /** At most MAX_ERRORS; the rest are counted in `omitted` and described in `summary`. */
  errors: TrajectoryError[];
  omitted: number;
  summary?: string;
  /** How many trajectories were looked at (1 for a single object, one per JSONL line). */
  checked: number;
  /** The trajectories without errors, with their JSONL line. */
  trajectories: { line?: number; trajectory: Trajectory }[];
}
