"""A stand-in for Qwen/Qwen3-0.6B and openai/gsm8k, made locally, for running an exported project on a CPU.

  python make_tiny.py [MODEL_DIR] [DATA_DIR]        (defaults: /tmp/tiny-qwen /tmp/fake-gsm8k)

MODEL_DIR: a random 2-layer Qwen3 (about 0.1M parameters) with a byte-level BPE tokenizer trained here on the fake
problems, Qwen's pre-tokenizer regex, Qwen3's special tokens (<tool_call> and <think> as added, non-special tokens, as in
Qwen3) and Qwen3's own chat template, read from the installed TRL (trl/chat_templates/qwen3.jinja). TRL recognises
Qwen3 by comparing the template with that file, so it takes the same code paths as for the real model: the training
template for assistant_only_loss and for tool calls, the Qwen3 response parser.
DATA_DIR: train.jsonl (48 rows) and test.jsonl (24 rows) in GSM8K's format: {"question", "answer"}, the answer with
<<a*b=c>> calculations and "#### <number>" (thousands separated by commas, as GSM8K sometimes writes them).
Fetches nothing. Needs torch, transformers, tokenizers and trl (see scripts/export/smoke.md).
"""
import json
import random
import sys
from pathlib import Path

import trl
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/tiny-qwen")
DATA = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/fake-gsm8k")

NAMES = ["Natalia", "Weng", "Betty", "Julie", "James", "Mark", "Albert", "Ken"]
THINGS = ["clips", "apples", "pages", "cookies", "marbles", "dollars"]
# Qwen2's and Qwen3's pre-tokenizer (their tokenizer.json): this split, then bytes.
QWEN_SPLIT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ADDED = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]


def problem(rng: random.Random) -> dict:
    n, a, b, t = rng.choice(NAMES), rng.randint(2, 60), rng.randint(2, 30), rng.choice(THINGS)
    c = a * b
    d = c + a
    question = f"{n} has {a} {t} per box and {b} boxes, then buys {a} more {t}. How many {t} does {n} have?"
    answer = f"{n} has {a}*{b} = <<{a}*{b}={c}>>{c} {t} in boxes.\nThen {c}+{a} = <<{c}+{a}={d}>>{d} {t}.\n#### {d:,}"
    return {"question": question, "answer": answer}


def main():
    rng = random.Random(0)
    DATA.mkdir(parents=True, exist_ok=True)
    for split, n in [("train", 48), ("test", 24)]:
        with open(DATA / f"{split}.jsonl", "w") as f:
            for _ in range(n):
                f.write(json.dumps(problem(rng)) + "\n")

    corpus = [json.dumps(problem(rng)) for _ in range(300)]
    corpus += ['system user assistant tool calculator expression {"name": "calculator", "arguments": {"expression": "3*4"}} ####'] * 20
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(QWEN_SPLIT), behavior="isolated"), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    )
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.add_tokens(ADDED)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = (Path(trl.__file__).parent / "chat_templates" / "qwen3.jinja").read_text()
    tokenizer.model_max_length = 4096
    tokenizer.save_pretrained(OUT)

    im_end, end_of_text = tokenizer.convert_tokens_to_ids(["<|im_end|>", "<|endoftext|>"])
    config = Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, head_dim=16, max_position_embeddings=4096, tie_word_embeddings=True,
        bos_token_id=None, eos_token_id=im_end, pad_token_id=end_of_text,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=[im_end, end_of_text], pad_token_id=end_of_text)  # as Qwen3's
    model.save_pretrained(OUT)
    print(f"{OUT}: vocabulary {len(tokenizer)}, {sum(p.numel() for p in model.parameters())} parameters; {DATA}: 48 + 24 problems")


if __name__ == "__main__":
    main()
