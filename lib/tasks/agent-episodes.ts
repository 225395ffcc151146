/**
 * The environment an agent episode runs in, for every agent task: the calculator (products, two steps) or the
 * memory tool and its scripted observations (memory), with reflection's one more try on top when asked for.
 */
import { agentEnvironment, type AgentProblem, type AgentTask } from './agent';
import { createMemoryEnv } from './agent-memory';
import type { ToolEnvironment } from './environment';
import { withRetries } from './reflection';

export interface EpisodeRules {
  /** The tool answers (calculator or memory); off, the calculator is absent and memory reads get "=?". */
  useTools: boolean;
  /** Tool calls answered per episode (TRL's max_tool_calling_iterations). */
  maxCalls: number;
  /** Calculator calls that fail at random (agent.ts: randomCallFailures). */
  fails?: (episodeText: string) => boolean;
  /** Tries per episode: 2 gives a wrong final answer the reply "?" and one more try (reflection.ts). */
  maxAttempts: number;
  /** The tool answers only after a verdict: the first try is from memory (reflection.ts withRetries). */
  toolAfterVerdict?: boolean;
}

/** The environment of a batch of problems (row i of the batch is problems[i]), or undefined when nothing answers. */
export function episodeEnvironment(task: AgentTask, problems: readonly AgentProblem[], rules: EpisodeRules): ToolEnvironment | undefined {
  const tool =
    task.kind === 'memory'
      ? createMemoryEnv(task.tokenizer, problems, { useTool: rules.useTools, maxCalls: rules.maxCalls })
      : rules.useTools
        ? agentEnvironment(task, rules.maxCalls, rules.fails)
        : undefined;
  return withRetries(tool, task.tokenizer, problems.map((p) => p.answer), rules.maxAttempts, { toolAfterVerdict: rules.toolAfterVerdict });
}
