/**
 * The reader's own reward function (the lab's reward editor, or `npm run export -- grpo --reward FILE.js`) in an
 * exported project: their JavaScript kept as custom_reward.js, and custom_reward.py with TRL's reward signature.
 * TRL calls Python, so the JavaScript cannot run there as it is: when the code is one of the editor's examples, whose
 * rules common.py already has in Python (tested against the lab's own rewards), custom_reward.py calls that function;
 * anything else becomes a stub that says how the arguments map and stops training until it is ported. Pure.
 */
import { asRewardModule, REWARD_EXAMPLES, type RewardExampleName } from '@/lib/tasks/custom-reward';

export interface CustomRewardExport {
  /** The reader's source, as written (a function named reward, or a module with export default). */
  source: string;
  weight: number;
}

/** The editor's examples whose rule common.py has, in Python, under this name. */
const PORTED: Partial<Record<RewardExampleName, 'correctness_reward' | 'format_reward' | 'length_penalty'>> = {
  correctness: 'correctness_reward',
  format: 'format_reward',
  length_penalty: 'length_penalty',
};

const normalise = (source: string) => source.replace(/\s+/g, ' ').trim();

/** The common.py function the reader's code is a copy of (one of the editor's examples, in either form), if any. */
export function portedEquivalent(source: string): { example: RewardExampleName; fn: string } | null {
  const text = normalise(source);
  for (const [example, fn] of Object.entries(PORTED) as [RewardExampleName, string][]) {
    const { source: exampleSource } = REWARD_EXAMPLES[example];
    if (text === normalise(exampleSource) || text === normalise(asRewardModule(exampleSource))) return { example, fn };
  }
  return null;
}

const commentLines = (text: string) =>
  text
    .replace(/\s+$/, '')
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');

/** custom_reward.js: the reader's code, with a first line saying where it came from. */
export function customRewardJs(reward: CustomRewardExport): string {
  return `// Your reward function from Agentic RL Lab, as you wrote it (weight ${reward.weight} in the run). TRL runs Python:
// custom_reward.py is what the project trains with; see its first lines.
${reward.source.replace(/\s+$/, '')}
`;
}

/** custom_reward.py: a call to common.py's equivalent, or a stub that stops training until the code is ported. */
export function customRewardPy(reward: CustomRewardExport): string {
  const ported = portedEquivalent(reward.source);
  const head = `"""Your reward function from the lab, with TRL's reward signature: completions, the prompts, and the dataset's columns
(here answer) as keyword arguments; one float per completion (docs/source/grpo_trainer.md, "Using a custom reward
function"). Your JavaScript is in custom_reward.js.
`;
  if (ported) {
    return `${head}
Your code is the lab editor's "${REWARD_EXAMPLES[ported.example].title}" example, whose rule common.py has in Python as
${ported.fn} (checked against the lab's own reward on the same completions), so this calls it.
"""
from common import ${ported.fn}


def custom_reward(completions, answer, **kwargs) -> list[float]:
    return ${ported.fn}(completions, answer=answer, **kwargs)
`;
  }
  return `${head}
This is a stub: JavaScript cannot run inside TRL, and your code is not one of the editor's examples, so port it by hand
below. How the lab's arguments map:
  completions[i]      -> completion_text(completions[i])   (a string, or a list of chat messages: common.py reads it)
  ctx.answers[i]      -> answer[i]                          (the dataset's column, passed by name)
  ctx.prompts[i]      -> prompts[i]
  ctx.truncated[i]    -> len(completion_ids[i]) >= MAX_COMPLETION_LENGTH   (cut off without an end token)
Until it is ported, training stops at the first batch with the message below.
"""
from common import completion_text  # noqa: F401  (you will need it)

# Your JavaScript, for reference:
${commentLines(reward.source)}


def custom_reward(completions, answer, prompts=None, completion_ids=None, **kwargs) -> list[float]:
    raise NotImplementedError("custom_reward.py is a stub: port your JavaScript reward (custom_reward.js) to Python in this function first")
`;
}
