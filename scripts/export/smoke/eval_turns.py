"""Does an agent project's eval.py show the model, after a calculator call, the text GRPOTrainer shows it in training?

  python eval_turns.py PROJECT_DIR [MODEL_DIR]       (MODEL_DIR: default /tmp/tiny-qwen; needs PROJECT_DIR/data/rl)

TRL's tool loop (grpo_trainer.py _tool_call_loop at v1.9.0) continues from the tokens the model generated, with the
tool's result appended; eval.py rebuilds the conversation as messages and renders it again. This runs eval.py's main()
with a scripted model that answers one calculator call, then '#### 1550', and checks that the second prompt begins
with the first prompt followed by exactly the text the model wrote. Prints one JSON line; exit 1 if it does not.
"""
import json
import os
import sys

import torch
import transformers

CALL = 'Albert has 50*30 = \n<tool_call>\n{"name": "calculator", "arguments": {"expression": "50*30"}}\n</tool_call>'
FINAL = "1500 cookies.\n#### 1550"


class ScriptedModel:
    """Answers the first prompt of a batch with CALL and any later one with FINAL; records every prompt it saw."""

    device = torch.device("cpu")

    def __init__(self, tokenizer):
        self.tokenizer, self.prompts = tokenizer, []

    def eval(self):
        return self

    def generate(self, input_ids, attention_mask, **kwargs):
        texts = self.tokenizer.batch_decode(input_ids, skip_special_tokens=False)
        pad = self.tokenizer.pad_token
        self.prompts.append([t.replace(pad, "") for t in texts])
        reply = CALL if len(self.prompts) == 1 else FINAL
        ids = self.tokenizer(reply + self.tokenizer.eos_token, add_special_tokens=False)["input_ids"]
        return torch.cat([input_ids, torch.tensor([ids] * len(texts))], dim=1)


def main():
    project, model_dir = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "/tmp/tiny-qwen"
    os.chdir(project)
    sys.path.insert(0, os.getcwd())
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    model = ScriptedModel(tokenizer)
    transformers.AutoModelForCausalLM.from_pretrained = lambda *args, **kwargs: model
    import eval as evaluation

    sys.argv = ["eval.py", "--model", model_dir, "--limit", "1", "--batch_size", "1", "--max_calls", "2"]
    evaluation.main()
    first, second = model.prompts[0][0], model.prompts[1][0]
    ok = second.startswith(first + CALL)
    print(json.dumps({"ok": ok, "turns": len(model.prompts), "expected": CALL, "got": second[len(first) - 40 : len(first) + len(CALL) + 20]}))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
