/**
 * The agent lab's charts. Its presets train different tasks, and each chart says which settings it is about
 * (ChartSpec.appliesTo, read by chartsInView.ts): the product charts (hard products against times-table facts, the
 * calculator's tokens, the results it would make up) for the calculator tasks with one try, the memory charts for the
 * memory task, the reflection charts for two tries, the retry chart for a calculator that fails. The rest (reward,
 * calls, length, loss) mean the same under every preset.
 */
import type { ChartSpec } from '../shell/MetricChart';
import type { Settings } from '@/ui/settings';

/** The memory task: facts, a window that drops them, a memory tool. */
const memoryTask = (s: Settings) => s.task === 'memory';
/** Tasks whose tool is the calculator (products, and two operations). */
const calculatorTask = (s: Settings) => !memoryTask(s);
/** Reflection: a wrong answer gets "?" and another try. */
const reflects = (s: Settings) => Number(s.answer_attempts) > 1;
/** The calculator tasks with one try and the calculator on: the masking bug's setting (what the tool's tokens do). */
const calculatorAnswers = (s: Settings) => calculatorTask(s) && !reflects(s) && s.use_tools !== false;

export const AGENT_CHARTS: ChartSpec[] = [
  { title: 'Held-out accuracy (all, hard products, times-table facts)', metrics: ['eval/accuracy', 'eval/accuracy_hard', 'eval/accuracy_easy'], axis: 'share right', kind: 'eval', domain: [0, 1], appliesTo: (s) => calculatorTask(s) && !reflects(s) },
  { title: 'Memory (held-out): right answers, and episodes that wrote the asked fact, read it back and answered with it', metrics: ['eval/accuracy', 'eval/memory_use_rate'], axis: 'share of episodes', kind: 'eval', domain: [0, 1], appliesTo: memoryTask },
  { title: 'Reflection (held-out): right on the first try, right after the second, fixed by it, and known facts missed then fixed', metrics: ['eval/first_try_accuracy', 'eval/accuracy', 'eval/fix_rate', 'eval/deliberate_miss_rate'], axis: 'share of episodes', kind: 'eval', domain: [0, 1], appliesTo: reflects },
  { title: 'Held-out tool use (share of episodes that call, by kind)', metrics: ['eval/tool_call_rate_hard', 'eval/tool_call_rate_easy'], axis: 'share that call', kind: 'eval', domain: [0, 1], appliesTo: calculatorTask },
  { title: 'Calls per episode (held-out)', metrics: ['eval/calls_per_episode'], kind: 'eval' },
  { title: 'After a failed call: calls again, and calls again then answers right (held-out)', metrics: ['eval/retry_rate', 'eval/recovery_rate'], axis: 'share of failures', kind: 'eval', domain: [0, 1], appliesTo: (s) => Number(s.tool_failure_rate) > 0 },
  { title: 'Memory use in the sampled training episodes', metrics: ['memory/use_rate'], kind: 'train', domain: [0, 1], appliesTo: memoryTask },
  { title: 'Fixed by the second try, in the sampled training episodes', metrics: ['reflection/fix_rate'], kind: 'train', domain: [0, 1], appliesTo: reflects },
  { title: 'Reward (mean and std)', metrics: ['reward', 'reward_std'], axis: 'reward', kind: 'train' },
  { title: 'Calls per episode, and the share that failed (training)', metrics: ['tools/call_frequency', 'tools/failure_frequency'], axis: 'per episode', kind: 'train' },
  { title: 'Log-prob of the calculator’s tokens under the policy', metrics: ['observations/mean_logprob'], kind: 'train', appliesTo: calculatorAnswers },
  { title: 'Results the model writes itself when no calculator answers', metrics: ['eval/fabricated_result_rate'], kind: 'eval', domain: [0, 1], appliesTo: calculatorAnswers },
  { title: 'Episode length (tokens after the prompt)', metrics: ['completions/mean_length'], axis: 'tokens', kind: 'train' },
  { title: 'Loss', metrics: ['loss'], kind: 'train' },
];
