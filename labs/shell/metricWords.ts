/**
 * What each metric the labs chart is, in a few words, for legends. The metric's own name (TRL's logged name, which a
 * learner will meet in TRL's logs) stays in the hover readout's title and the data table's header.
 * tests/unit/site/metric-words.test.ts checks that every metric a lab charts has its words here.
 */
export const METRIC_WORDS: Record<string, string> = {
  reward: 'mean reward',
  reward_std: 'reward spread (std)',
  loss: 'loss',
  entropy: 'entropy',
  kl: 'KL to the reference',
  'clip_ratio/low_mean': 'clipped below',
  'clip_ratio/high_mean': 'clipped above',
  'policy/ratio_mean': 'mean importance ratio',
  'completions/mean_length': 'mean length',
  'completions/mean_length_correct': 'right answers',
  'completions/mean_length_incorrect': 'wrong answers',
  'eval/accuracy': 'accuracy',
  'eval/accuracy_hard': 'hard products',
  'eval/accuracy_easy': 'times-table facts',
  'eval/old_task_accuracy': 'old-task accuracy',
  'eval/tool_call_rate_hard': 'calls on hard products',
  'eval/tool_call_rate_easy': 'calls on times-table facts',
  'eval/calls_per_episode': 'calls per episode',
  'eval/retry_rate': 'calls again',
  'eval/recovery_rate': 'calls again, then right',
  'eval/fabricated_result_rate': 'made-up results',
  'eval/return': 'greedy return',
  'episode/return_mean': 'mean episode return',
  'loss/policy_avg': 'policy loss',
  'loss/value_avg': 'value loss',
  'policy/entropy_avg': 'entropy',
  'policy/approxkl_avg': 'approximate KL',
  'policy/clipfrac_avg': 'policy clipped',
  'val/clipfrac_avg': 'value clipped',
  'rewards/chosen': 'chosen',
  'rewards/rejected': 'rejected',
  'rewards/margins': 'margin (chosen − rejected)',
  'rewards/accuracies': 'chosen ranked higher',
  'logps/chosen': 'chosen',
  'logps/rejected': 'rejected',
  'tools/call_frequency': 'calls per episode',
  'tools/failure_frequency': 'failed calls',
  'observations/mean_logprob': 'calculator tokens’ log-prob',
  trainable_params: 'trainable parameters',
  trainable_percent: 'trainable share',
  optimizer_state_bytes: 'optimizer state',
};

/** A metric's words, or its own name where none are written. */
export const metricWords = (metric: string) => METRIC_WORDS[metric] ?? metric;
