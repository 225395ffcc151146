/**
 * common.py of an exported project: the model, the prompt, the answer parser and the lab's reward functions in Python
 * with TRL's reward signature, and (for the agent) the calculator tool. Standard library only, so tests import it with
 * plain python3 and compare its rewards with lib/tasks/rewards.ts on the same completions.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import type { Plan } from '../mapping';
import { assignments, py } from '../py';
import { DATASET, MODEL, MODEL_ALTERNATIVE } from '../versions';
import { agentEpisodeRules, environmentPy } from './environment';

export const SYSTEM_PROMPT = "Solve the math problem step by step. End your reply with the final answer on its own line, as '#### <number>'.";
export const TOOL_PROMPT = `${SYSTEM_PROMPT} You can call the calculator tool for any arithmetic.`;

/** The model, the data set, the chat settings and the system prompt, as every GSM8K project's common.py states them. */
export function modelConstantsPy(whoTrains: string, systemPrompt: string): string {
  return `# The one model ${whoTrains}. ${MODEL_ALTERNATIVE} is the alternative of the same family at this
# size (it has no thinking mode: drop "enable_thinking" below for it).
MODEL = ${py(MODEL)}
DATASET = ${py(DATASET.id)}
DATASET_CONFIG = ${py(DATASET.config)}
# Qwen3 writes a <think> block first by default; the lab's model answers directly, and so do these scripts.
CHAT_TEMPLATE_KWARGS = {"enable_thinking": False}
SYSTEM_PROMPT = ${py(systemPrompt)}`;
}

/** The lab's batch per optimizer step split over WORLD_SIZE processes, in Python: every project's common.py has it. */
export const BATCH_LAYOUT_PY = `def batch_layout(batch: int, micro_batch_cap: int) -> tuple[int, int]:
    """The lab's examples per optimizer step on this run's processes: (per-device micro-batch, accumulation steps).

    accelerate launch starts one process per GPU and sets WORLD_SIZE; python alone is one process. Each process takes
    batch / processes examples per optimizer step, in micro-batches of at most micro_batch_cap, so the optimizer sees
    the lab's batch on 1, 2 or 8 GPUs alike (lib/export/mapping.ts batchLayout computes the same).
    """
    processes = int(os.environ.get("WORLD_SIZE", "1"))
    if batch % processes:
        raise SystemExit(f"The lab's batch of {batch} examples per optimizer step does not split over {processes} processes: use a number of GPUs that divides {batch}.")
    share = batch // processes
    micro = max(d for d in range(1, min(share, micro_batch_cap) + 1) if share % d == 0)
    return micro, share // micro`;

const constantsIn = (plan: Plan, file: string) => assignments(plan.constants, file).join('\n');

const CALCULATOR = `
# ---- The calculator tool --------------------------------------------------------------------------------------------
# GRPOTrainer(tools=[calculator]) exposes it to the model: TRL ${TRL_VERSION} wants a plain function with type hints and a
# Google-style docstring (GRPOTrainer's docstring, trl/trainer/grpo_trainer.py:251-254), and turns an exception into
# {"error": ...} for the model (grpo_trainer.py:2027-2029), as the lab's calculator answers a bad call with an error.

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}


def _evaluate(node):
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 16:
            raise ValueError("exponent too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    raise ValueError(f"not arithmetic: {ast.unparse(node)}")


def format_number(value) -> str:
    """12.0 -> "12", 0.30000000000000004 -> "0.3"."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value) if isinstance(value, int) else f"{value:.10g}"


def calculator(expression: str) -> str:
    """
    Evaluates an arithmetic expression with numbers, +, -, *, /, %, ** and parentheses.

    Args:
        expression: The expression to evaluate, for example "48/2" or "(3 + 4) * 12".

    Returns:
        The value of the expression.
    """
    if len(expression) > 200:
        raise ValueError("expression too long")
    if TOOL_FAILURE_RATE and random.random() < TOOL_FAILURE_RATE:
        raise RuntimeError("the calculator failed; try the call again")  # the lab's flaky tool (tool_failure_rate)
    return compute(expression)


def compute(expression: str) -> str:
    """The calculator's arithmetic, never failing at random (for demonstrations)."""
    return format_number(_evaluate(ast.parse(expression.replace(",", ""), mode="eval").body))


# GSM8K's solutions mark each calculation as <<48/2=24>>: each becomes a demonstration of a calculator call.
ANNOTATION_RE = re.compile(r"<<([^=<>]*)=([^<>]*)>>")
# Qwen's tool-call format (Qwen2.5 and Qwen3 alike), for eval.py's own tool loop.
TOOL_CALL_RE = re.compile(r"<tool_call>\\s*(\\{.*?\\})\\s*</tool_call>", re.S)


def tool_call(expression: str) -> dict:
    return {"type": "function", "function": {"name": "calculator", "arguments": {"expression": expression}}}


def message(role: str, content: str, tool_calls=None, name: str = "") -> dict:
    # Every message has the same keys and types, so that datasets stores them as one struct.
    return {"role": role, "content": content, "tool_calls": tool_calls or [], "name": name}


def tool_use_messages(gsm8k_answer: str) -> list:
    """A GSM8K solution as the conversation a tool-using model would have: text, a call, its result, more text."""
    text = solution_text(gsm8k_answer, keep_annotations=True)
    messages, start = [], 0
    for match in ANNOTATION_RE.finditer(text):
        try:
            result = compute(match.group(1))
        except (ValueError, ArithmeticError, SyntaxError):
            continue  # a malformed annotation stays out of the demonstration
        messages.append(message("assistant", ANNOTATION_RE.sub("", text[start : match.start()]), [tool_call(match.group(1))]))
        messages.append(message("tool", result, name="calculator"))
        start = match.end()
    messages.append(message("assistant", ANNOTATION_RE.sub("", text[start:])))
    return messages


def parse_tool_calls(text: str) -> list:
    """The calculator expressions in a completion written in Qwen's format; malformed calls are skipped."""
    calls = []
    for raw in TOOL_CALL_RE.findall(text):
        try:
            call = json.loads(raw)
            if call.get("name") == "calculator":
                calls.append(str(call["arguments"]["expression"]))
        except (ValueError, KeyError, TypeError):
            pass
    return calls


def text_before_calls(text: str) -> str:
    """The assistant's text before its first <tool_call>, without the one newline Qwen's chat template writes before a
    call. TRL's Qwen3 parser reads the content so (qwen3_schema, trl/chat_template_utils.py:219 at ${TRL_VERSION}); the
    template writes the newline again when the turn is rendered, so the conversation reads as the model wrote it."""
    return text.split("<tool_call>")[0].removesuffix("\\n")


def tool_cost_reward(completions, **kwargs) -> list[float]:
    """-1 per calculator call (the lab's tool_cost): TRL appends one "tool" message per call it ran."""
    return [-float(sum(1 for m in c if m.get("role") == "tool")) if not isinstance(c, str) else 0.0 for c in completions]
`;

export function commonPy(plan: Plan, lab: { preset: string }): string {
  const agent = plan.method === 'agent';
  // The lab's multi-turn rules (reflection, a flaky calculator, memory) need a TRL environment; plain runs keep tools=[calculator].
  const episode = agentEpisodeRules(plan);
  const imports = agent ? `import ast\n${episode ? 'import functools\n' : ''}import json\nimport operator\nimport os\nimport random\nimport re` : 'import os\nimport re';
  return `"""Shared by every script of this project: the model, the prompt, the answer parser and the reward functions${agent ? `, and the\ncalculator tool${episode ? ' and the environment of the lab\'s episode rules' : ''}` : ''}.

Exported from Agentic RL Lab (the ${plan.method} trainer, preset ${lab.preset}) for TRL ${TRL_VERSION}. Standard library only: it
imports without a GPU, and the course's tests compare these rewards with the lab's on the same completions.
"""
${imports}

${modelConstantsPy('every script trains', agent ? TOOL_PROMPT : SYSTEM_PROMPT)}
${constantsIn(plan, 'common.py')}${agent && !plan.constants.TOOL_FAILURE_RATE ? '\nTOOL_FAILURE_RATE = 0  # the calculator never fails at random' : ''}


${BATCH_LAYOUT_PY}


def answer_number(gsm8k_answer: str) -> str:
    """GSM8K's reference answer after '####', without thousands separators: '... #### 1,000' -> '1000'."""
    return gsm8k_answer.split("####")[-1].strip().replace(",", "")


def solution_text(gsm8k_answer: str, keep_annotations: bool = False) -> str:
    """A GSM8K solution as the model should write it: the steps, then '#### <number>' on its own line."""
    steps = gsm8k_answer.split("####")[0].strip()
    if not keep_annotations:
        steps = re.sub(r"<<[^<>]*>>", "", steps)
    return f"{steps}\\n#### {answer_number(gsm8k_answer)}"


def parse_answer(text: str):
    """The integer after the first '####', or None: the lab's parseAnswer (lib/tasks/rewards.ts)."""
    match = re.search(r"####\\s*(-?\\d+)", text)
    return match.group(1) if match else None


def same_number(got: str, truth: str) -> bool:
    """'052' counts as 52; a truth that is not an integer never matches (as in the lab)."""
    return re.fullmatch(r"-?\\d+", truth) is not None and int(got) == int(truth)


def completion_text(completion) -> str:
    """What a reward reads: the text (standard format) or the last assistant message's content (conversational)."""
    if isinstance(completion, str):
        return completion
    for m in reversed(completion):
        if m.get("role") == "assistant" and m.get("content"):
            return m["content"]
    return ""


# ---- Rewards: TRL's signature, reward(completions, **kwargs) -> list[float]; dataset columns (answer, solution)
# arrive as keyword arguments (docs/source/grpo_trainer.md, "Using a custom reward function").


def correctness_reward(completions, answer, **kwargs) -> list[float]:
    """1.0 when the integer after '####' equals the reference answer, else 0.0 (the lab's correctnessReward)."""
    rewards = []
    for completion, truth in zip(completions, answer):
        got = parse_answer(completion_text(completion))
        rewards.append(1.0 if got is not None and same_number(got, truth) else 0.0)
    return rewards


# The lab's format check, /^(?:[^#]* )?#### (-?\\d+)$/, with any whitespace before '####' (GSM8K puts the answer on
# its own line) and a trailing newline ignored. The lab also gives 0 to a truncated completion; TRL does not tell
# reward functions about truncation (mask_truncated_completions drops them from the loss instead).
FORMAT_RE = re.compile(r"(?:[^#]*\\s)?#### (-?\\d+)")


def format_reward(completions, **kwargs) -> list[float]:
    """1.0 when the completion ends with '#### <integer>' and has no other '#', else 0.0. Says nothing of correctness."""
    return [1.0 if FORMAT_RE.fullmatch(completion_text(c).rstrip("\\n")) else 0.0 for c in completions]


def length_penalty(completions, answer, solution=None, **kwargs) -> list[float]:
    """In [-1, 0]: 0 up to the reference solution's length, then -(extra characters / reference length)."""
    rewards = []
    for i, completion in enumerate(completions):
        reference = len(solution[i]) if solution is not None else len(f"#### {answer[i]}")
        extra = len(completion_text(completion)) - reference
        rewards.append(0.0 if extra <= 0 else max(-1.0, -extra / reference))
    return rewards


# ---- DELIBERATELY FLAWED verifiers: the lab's reward-hacking demonstration. Never train a real model on them except
# to watch the hack happen; correctness_reward is the honest one.


def at_least_reward(completions, answer, **kwargs) -> list[float]:
    """DELIBERATELY FLAWED: a comparison bug (>= where == was meant). Any answer at least as large as the truth scores 1."""
    rewards = []
    for completion, truth in zip(completions, answer):
        got = parse_answer(completion_text(completion))
        rewards.append(1.0 if got is not None and re.fullmatch(r"-?\\d+", truth) and int(got) >= int(truth) else 0.0)
    return rewards


def digits_reward(completions, answer, **kwargs) -> list[float]:
    """DELIBERATELY FLAWED: 1 when every digit of the truth appears anywhere in the answer ('#### 1234567890' always wins)."""
    rewards = []
    for completion, truth in zip(completions, answer):
        got = re.search(r"####\\s*(-?\\d+)", completion_text(completion))
        rewards.append(1.0 if got and all(d in got.group(1) for d in truth.replace("-", "")) else 0.0)
    return rewards
${agent ? CALCULATOR : ''}${episode ? environmentPy(episode) : ''}`;
}
