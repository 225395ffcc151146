/** eval.py: held-out GSM8K accuracy, greedy, with the lab's answer parser (and the calculator loop for the agent). */
import { TRL_VERSION } from '@/content/trl-defaults';
import type { Plan } from '../mapping';

export function evalPy(plan: Plan): string {
  const agent = plan.method === 'agent';
  const defaultModel = { sft: 'outputs/sft', grpo: 'outputs/grpo', dpo: 'outputs/dpo', agent: 'outputs/agent' }[plan.method];
  const generateBlock = agent
    ? `def answer(model, tokenizer, prompts, max_new_tokens, max_calls):
    """Greedy replies; while USE_TOOLS, each calculator call in Qwen's <tool_call> format is run and answered."""
    conversations = [list(p) for p in prompts]
    finals, calls = [None] * len(prompts), [0] * len(prompts)
    active = list(range(len(prompts)))
    for round_ in range(max_calls + 1):
        texts = generate(model, tokenizer, [conversations[i] for i in active], max_new_tokens)
        still = []
        for i, text in zip(active, texts):
            expressions = parse_tool_calls(text) if USE_TOOLS and round_ < max_calls else []
            if not expressions:
                finals[i] = text
                continue
            conversations[i].append({"role": "assistant", "content": text_before_calls(text), "tool_calls": [tool_call(e) for e in expressions]})
            for e in expressions:
                calls[i] += 1
                try:
                    result = calculator(e)
                except Exception as error:  # as TRL does: the model reads the error
                    result = str({"error": str(error)})
                conversations[i].append({"role": "tool", "name": "calculator", "content": result})
            still.append(i)
        active = still
        if not active:
            break
    return finals, calls`
    : `def answer(model, tokenizer, prompts, max_new_tokens, max_calls):
    return generate(model, tokenizer, prompts, max_new_tokens), [0] * len(prompts)`;
  return `"""Step 4: held-out accuracy on GSM8K's test split, greedy decoding, with the lab's answer parser (the integer after
the first '####'${agent ? '; the model may call the calculator, as in training' : ''}).

Run: python eval.py --model ${defaultModel}        (the model before this run: --model outputs/sft${agent ? ', or --model Qwen/Qwen3-0.6B' : ''})
Writes eval-<name>.json with the accuracy, the format rate and every answer.
"""
import argparse
import json

import torch
from datasets import load_from_disk
from transformers import AutoModelForCausalLM, AutoTokenizer
${agent ? 'from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving\n' : ''}
from common import CHAT_TEMPLATE_KWARGS, correctness_reward, format_reward${agent ? ', USE_TOOLS, calculator, parse_tool_calls, text_before_calls, tool_call' : ''}


def generate(model, tokenizer, conversations, max_new_tokens):
    texts = [tokenizer.apply_chat_template(c, ${agent ? 'tools=[calculator] if USE_TOOLS else None, ' : ''}add_generation_prompt=True, tokenize=False, **CHAT_TEMPLATE_KWARGS) for c in conversations]
    inputs = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False).to(model.device)
    with torch.no_grad():
        ids = model.generate(**inputs, do_sample=False, max_new_tokens=max_new_tokens)
    return tokenizer.batch_decode(ids[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)


${generateBlock}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\\n")[0])
    parser.add_argument("--model", default=${JSON.stringify(defaultModel)})
    parser.add_argument("--limit", type=int, default=None, help="score only the first N test problems")
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--max_new_tokens", type=int, default=512)
    parser.add_argument("--max_calls", type=int, default=${agent ? 8 : 0}, help="calculator calls answered per problem")
    args = parser.parse_args()

    test = load_from_disk("data/rl")["test"]
    if args.limit:
        test = test.select(range(min(args.limit, len(test))))
    tokenizer = AutoTokenizer.from_pretrained(args.model, padding_side="left")
${
  agent
    ? `    if USE_TOOLS and not is_chat_template_prefix_preserving(tokenizer):
        # GRPOTrainer renders conversations with calls in TRL's training variant of the template
        # (grpo_trainer.py:743-744 at ${TRL_VERSION}), which for Qwen3 keeps the empty <think> block of every assistant
        # turn; Qwen3's own drops it from turns before a tool result. The same here, so that a conversation with calls
        # reads as it did in training.
        tokenizer.chat_template = get_training_chat_template(tokenizer)
`
    : ''
}    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.bfloat16, device_map="auto").eval()

    rows = []
    for start in range(0, len(test), args.batch_size):
        batch = test.select(range(start, min(start + args.batch_size, len(test))))
        finals, calls = answer(model, tokenizer, batch["prompt"], args.max_new_tokens, args.max_calls)
        correct = correctness_reward(finals, batch["answer"])
        formatted = format_reward(finals)
        for text, truth, c, f, n in zip(finals, batch["answer"], correct, formatted, calls):
            rows.append({"answer": truth, "completion": text, "correct": c, "format": f, "calls": n})
    n = len(rows)
    summary = {
        "model": args.model,
        "problems": n,
        "accuracy": sum(r["correct"] for r in rows) / n,
        "format": sum(r["format"] for r in rows) / n,
        "call_rate": sum(r["calls"] > 0 for r in rows) / n,
    }
${SAVE_EVAL_SUMMARY_PY}`;
}

/** The end of every eval.py: print the summary, write it with the per-problem rows to eval-<model>.json, run main. */
export const SAVE_EVAL_SUMMARY_PY = `    print(json.dumps(summary))
    name = args.model.rstrip("/").split("/")[-1]
    with open(f"eval-{name}.json", "w") as f:
        json.dump({**summary, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
`;
