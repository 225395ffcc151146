import type { TinyLMConfig } from './config';

/**
 * The lab's default policy model, measured with scripts/probes/sft-probe.ts on the arithmetic task with
 * scratchpad (2-digit addition; prompt 7 + completion ≤ 15 tokens). SFT, Adam 3e-3, batch 32, greedy accuracy on
 * 200 held-out problems, 4 seeds: step 200 → 24–49%, 250 → 38–73%, 300 → 63–90%, 500 → 97–99%. So a ~200–250-step
 * SFT leaves RL clear room. 27.6k parameters. Speed (scripts/probes/speed-probe.ts, Node, 2 shared cores):
 * forward+backward+Adam at batch 32 × 21 tokens ≈ 33–39 ms on wasm (0.6–0.8 s on cpu); sampling 32 completions of
 * 15 tokens ≈ 105 ms on wasm. d_model 48 costs ≈ 45 ms per step and 140 ms per generation.
 */
export const LAB_TINY_LM: Omit<TinyLMConfig, 'vocab_size' | 'context_length'> = {
  d_model: 32, // 48 learns no faster per step here and costs ~1.3× the time
  n_layers: 2, // 1 layer stays under 20% for 800 steps: carrying needs two rounds of attention
  n_heads: 4,
};

/** What a model needs to know about a task to fit it. */
export interface TaskShape {
  tokenizer: { vocabSize: number };
  promptLength: number;
  maxCompletionLength: number;
}

/**
 * A TinyLM config sized for a task: vocabulary from its tokenizer, context just long enough for prompt + completion
 * (the last token is never an input, so P + M − 1 would do; P + M keeps one spare position).
 */
export function configForTask(task: TaskShape, overrides: Partial<TinyLMConfig> = {}): TinyLMConfig {
  return {
    ...LAB_TINY_LM,
    vocab_size: task.tokenizer.vocabSize,
    context_length: task.promptLength + task.maxCompletionLength,
    ...overrides,
  };
}
