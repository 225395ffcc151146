/** prepare_data.py: GSM8K from the Hub into the data sets the other scripts read (datasets.save_to_disk). */
import type { ExportMethod } from '../mapping';

export function prepareDataPy(method: ExportMethod): string {
  const agent = method === 'agent';
  const sftExample = agent
    ? `def to_sft(row):
    # A conversation with calculator calls where GSM8K's solution computed <<...>>; assistant_only_loss=True in
    # train_sft.py trains on the assistant's turns only, never on the tool's results.
    return {
        "messages": [message("system", SYSTEM_PROMPT), message("user", row["question"])] + tool_use_messages(row["answer"]),
        "tools": TOOLS_JSON,
        "chat_template_kwargs": CHAT_TEMPLATE_KWARGS,
    }`
    : `def to_sft(row):
    # Prompt-completion pairs: SFTTrainer trains on the completion only (completion_only_loss=True).
    return {
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": row["question"]}],
        "completion": [{"role": "assistant", "content": solution_text(row["answer"])}],
        "chat_template_kwargs": CHAT_TEMPLATE_KWARGS,
    }`;
  return `"""Step 1: GSM8K from the Hub into the data sets the other scripts read.

  data/rl   prompt (system + question), answer (the number after '####', no commas), solution (the reference
            completion): ${method === 'dpo' ? 'make_pairs.py samples from its prompts, and ' : method === 'sft' ? '' : 'the RL prompts, and '}eval.py scores its test split
  data/sft  ${agent ? 'tool-use conversations built from GSM8K\'s <<48/2=24>> calculations, for train_sft.py' : 'prompt-completion pairs whose completion ends with "#### <number>", for train_sft.py'}

Run once: python prepare_data.py   (downloads ~5 MB; GSM8K has 7,473 training and 1,319 test problems)
"""
${agent ? 'import json\n\n' : ''}from datasets import load_dataset
${agent ? 'from transformers.utils import get_json_schema\n' : ''}
from common import CHAT_TEMPLATE_KWARGS, DATASET, DATASET_CONFIG, SYSTEM_PROMPT, answer_number, solution_text${agent ? ', calculator, message, tool_use_messages' : ''}
${agent ? '\n# The chat template writes the tool\'s description from this schema (TRL\'s docs/source/dataset_formats.md, "Tool Calling").\nTOOLS_JSON = json.dumps([get_json_schema(calculator)])\n' : ''}

def to_rl(row):
    return {
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": row["question"]}],
        "answer": answer_number(row["answer"]),
        "solution": solution_text(row["answer"]),
    }


${sftExample}


def main():
    gsm8k = load_dataset(DATASET, DATASET_CONFIG)
    columns = gsm8k["train"].column_names  # question, answer
    # Never reuse a cached map: datasets fingerprints to_rl and to_sft but not the common.py functions they call, so
    # after an edit to common.py (solution_text, the tool-use demonstrations) a rerun would return the old rows.
    gsm8k.map(to_rl, remove_columns=columns, load_from_cache_file=False).save_to_disk("data/rl")
    gsm8k.map(to_sft, remove_columns=columns, load_from_cache_file=False).save_to_disk("data/sft")
    print({split: len(rows) for split, rows in gsm8k.items()})


if __name__ == "__main__":
    main()
`;
}
