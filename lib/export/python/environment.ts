/**
 * The agent lab's multi-turn episode rules as a TRL environment (GRPOTrainer(environment_factory=...)), appended to
 * common.py where a run needs them: a second try after the reply "?" (answer_attempts), a calculator that fails at the
 * lab's rate by the lab's seeded rule (tool_failure_rate), and the memory tool (the memory task). Runs without any of
 * them keep the plain tools=[calculator] of python/common.ts, byte for byte as before.
 *
 * TRL at the pinned release (trl/trainer/grpo_trainer.py, content/trl-defaults.ts TRL_VERSION): environment_factory is documented at 266-282 and experimental (586-593,
 * needs transformers >= 5.2.0: 602-607); one instance per rollout; its public methods become the tools (654-664);
 * reset(**row) gets the dataset row and may return text appended to the last user message (2407-2420); every reward
 * function receives the rollouts' instances as `environments` (1654-1655).
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { WRONG_REPLY } from '@/lib/tasks/reflection';
import type { Plan } from '../mapping';
import { py } from '../py';

/** What the environment of a run holds; null where the run needs none. */
export interface AgentEpisodeRules {
  /** Tries per episode (answer_attempts); above 1 the model answers through submit_answer. */
  attempts: number;
  /** The calculator's random failures (tool_failure_rate), drawn by the lab's seeded rule. */
  failureRate: number;
  /** The memory tool (the memory task with use_tools on): remember and recall. */
  memory: boolean;
  /** The calculator is one of the environment's tools (use_tools). */
  calculator: boolean;
  /** The calculator answers only after a wrong answer was told "?" (tool_after_verdict, the reflect_feedback preset). */
  toolAfterVerdict: boolean;
}

/** The reply to an answer that ends the episode, right or on the last try alike: like the lab, it gives no verdict. */
export const EPISODE_OVER = 'Answer recorded. The episode is over.';
/** The memory tool's reply to a key never stored (the lab's "=?" without its "=", which only marks a reply there). */
export const MEMORY_MISS_REPLY = '?';
/** Tool messages the lab never counted as calls: its answers are not tool calls, and a memory write gets no reply. */
export const NOT_CALLS = ['submit_answer', 'remember'] as const;

const num = (plan: Plan, name: string) => plan.constants[name]?.value;

/** The episode rules a plan's constants ask for (mapping.ts AGENT_RULES writes them), or null for plain tools. */
export function agentEpisodeRules(plan: Plan): AgentEpisodeRules | null {
  if (plan.method !== 'agent') return null;
  const calculator = num(plan, 'USE_TOOLS') === true;
  const attempts = (num(plan, 'ANSWER_ATTEMPTS') as number | undefined) ?? 1;
  const failureRate = calculator ? ((num(plan, 'TOOL_FAILURE_RATE') as number | undefined) ?? 0) : 0;
  const memory = num(plan, 'MEMORY_TOOL') === true;
  const toolAfterVerdict = calculator && num(plan, 'TOOL_AFTER_VERDICT') === true;
  return attempts > 1 || failureRate > 0 || memory ? { attempts, failureRate, memory, calculator, toolAfterVerdict } : null;
}

/** The lab's calculator is silent until the verdict (reflection.ts withRetries); TRL answers every call, so it raises. */
const BEFORE_VERDICT = `
            if TOOL_AFTER_VERDICT and not self.tries:
                raise RuntimeError("the calculator answers only after a wrong answer: submit_answer first")`;

const calculatorMethod = (rules: AgentEpisodeRules) => `
    def calculator(self, expression: str) -> str:
        """
        Evaluates an arithmetic expression with numbers, +, -, *, /, %, ** and parentheses.

        Args:
            expression: The expression to evaluate, for example "48/2" or "(3 + 4) * 12".

        Returns:
            The value of the expression.
        """
        call = f"[{expression}]"
        try:
            if len(expression) > 200:
                raise ValueError("expression too long")${rules.toolAfterVerdict ? BEFORE_VERDICT : ''}
            result = compute(expression)
            # The lab's order (lib/tasks/environment.ts): a malformed call fails anyway; a good one may fail at random.
            if call_fails(TOOL_FAILURE_RATE, self.salt, self.transcript + call):
                raise RuntimeError("the calculator failed; try the call again")
        except Exception:
            self.transcript += f"{call}=? "  # TRL answers the model {"error": ...} (grpo_trainer.py:2027-2029)
            raise
        self.transcript += f"{call}={result} "
        return result
`;

const ANSWER_METHOD = `
    def submit_answer(self, answer: str) -> str:
        """
        Submits your final answer to the problem. A wrong answer gets the reply "?" while you have tries left: then
        think again and submit another.

        Args:
            answer: The final answer, a number, for example "72".

        Returns:
            "?" when the answer is wrong and you may try again; otherwise that the episode is over.
        """
        if self.over:
            return EPISODE_OVER
        self.tries.append(str(answer).strip())
        # The lab's verdict compares the parsed integer's text with the answer's (reflection.ts), stricter than
        # correctness_reward's same_number: "052" is told "?" although it scores as 52.
        right = parse_answer(f"#### {self.tries[-1]}") == self.truth
        if right or len(self.tries) >= ANSWER_ATTEMPTS:
            self.over = True
            return EPISODE_OVER
        return WRONG_REPLY
`;

const MEMORY_METHODS = `
    def remember(self, key: str, value: str) -> str:
        """
        Stores a value under a key, to read back later in this problem with recall.

        Args:
            key: A short name, for example "apples".
            value: What to keep, for example "12".

        Returns:
            Nothing: the value is stored.
        """
        self.memory[key] = value
        return ""  # the lab's write "[k=v]" gets no reply

    def recall(self, key: str) -> str:
        """
        Reads the value last stored under a key with remember.

        Args:
            key: The name it was stored under.

        Returns:
            The value, or "?" for a key never stored.
        """
        return self.memory.get(key, MEMORY_MISS)
`;

/** The Python block appended to common.py: the lab's seeded failure rule, the environment class, the reward view. */
export function environmentPy(rules: AgentEpisodeRules): string {
  const tools = [rules.calculator ? 'the calculator' : '', rules.attempts > 1 ? 'submit_answer' : '', rules.memory ? 'remember and recall (the memory tool)' : ''].filter(Boolean);
  return `

# ---- The lab's episode rules as a TRL environment -------------------------------------------------------------------
# GRPOTrainer(environment_factory=...) (trl/trainer/grpo_trainer.py:266-282 at ${TRL_VERSION}, experimental: 586-593) makes
# one AgentEnvironment per rollout and offers its public methods as the tools (654-664): here ${tools.join(', ')}.
# Before generating it calls reset(**row) with the dataset row, answer included (2407-2420). Rewards read the
# instances: TRL passes them to every reward function as \`environments\` (1654-1655), see scored_as_in_lab below.
# (The environment defines no get_reward: TRL would add it as one more reward at weight 1 (689-700), and the lab
# weighs correctness by reward_weight_correctness.)

WRONG_REPLY = ${py(WRONG_REPLY)}  # the lab's whole reply to a wrong answer (lib/tasks/reflection.ts): never the right value
EPISODE_OVER = ${py(EPISODE_OVER)}  # a right answer and the last try alike: no verdict
MEMORY_MISS = ${py(MEMORY_MISS_REPLY)}  # recall of a key never stored (the lab's "=?")
NOT_CALLS = (${NOT_CALLS.map((n) => py(n)).join(', ')})  # tools whose messages the lab never counted as calls
${rules.attempts > 1 ? `ANSWER_NOTE = f"\\n\\nGive your final answer with the submit_answer tool. A wrong answer gets the reply {WRONG_REPLY!r} and you may try again: {ANSWER_ATTEMPTS} tries in all."\n` : ''}

def lab_hash(text: str) -> int:
    """FNV-1a over UTF-16 code units, as JavaScript's charCodeAt sees a string: lib/tasks/arithmetic.ts hash32."""
    h = 0x811C9DC5
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h ^= units[i] | (units[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def mix32(h: int) -> int:
    """MurmurHash3's finaliser (lib/tasks/agent.ts mix32): texts that differ only at the end draw independently."""
    h = ((h ^ (h >> 16)) * 0x85EBCA6B) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def call_fails(rate: float, salt: str, episode_text: str) -> bool:
    """The lab's flaky calculator (lib/tasks/agent.ts randomCallFailures): a call fails when a hash of the salt and the
    episode's calls so far falls below the rate. A retry is a longer text, so it draws again."""
    return rate > 0 and mix32(lab_hash(f"{salt}|{episode_text}")) / 2**32 < rate


class AgentEnvironment:
    """One episode of the lab's agent on a GSM8K problem.

    The lab's salt for failures names the run's seed and the generation batch; TRL does not tell an environment which
    batch it serves, so each instance counts its own episodes: the same seed gives the same failures for the same
    sequence of calls, and a retry draws afresh, as in the lab.
    """

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.episodes = 0
        self.reset()

    def reset(self, answer: str = "", **row) -> str | None:
        self.truth = answer  # the number after '####' (prepare_data.py)
        self.transcript = ""  # the calls so far as the lab writes them, "[48/2]=24 [24*3]=? ": what failures are drawn on
        self.tries = []  # answers given through submit_answer, in order
        self.over = False
        self.memory = {}
        self.salt = f"train:{self.seed}:{self.episodes}"
        self.episodes += 1
        return ${rules.attempts > 1 ? 'ANSWER_NOTE  # the rules of answering, appended to the question' : 'None'}
${rules.calculator ? calculatorMethod(rules) : ''}${rules.attempts > 1 ? ANSWER_METHOD : ''}${rules.memory ? MEMORY_METHODS : ''}

def lab_episode(completion, environment):
    """A rollout as the lab's rewards read it: without the tool messages the lab never counted as calls, and with the
    last try (the last submit_answer) as the final turn. The lab scores the last try; a model that submitted nothing
    is scored on its text, one try."""
    if isinstance(completion, str) or environment is None:
        return completion
    episode = [m for m in completion if not (m.get("role") == "tool" and m.get("name") in NOT_CALLS)]
    if environment.tries:
        episode.append({"role": "assistant", "content": f"#### {environment.tries[-1]}"})
    return episode


def scored_as_in_lab(reward):
    """reward, reading each rollout through its environment (lab_episode); TRL logs it under the same name."""

    @functools.wraps(reward)
    def scored(completions, environments=None, **kwargs):
        if environments is not None:
            completions = [lab_episode(c, e) for c, e in zip(completions, environments)]
        return reward(completions, **kwargs)

    return scored
`;
}
