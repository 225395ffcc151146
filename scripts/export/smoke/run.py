"""Runs one script of an exported project at toy scale on a CPU, without editing it.

  python run.py PROJECT_DIR SCRIPT.py [key=value ...]

The script's own code runs: prepare_data.py as `python prepare_data.py` would (runpy, as __main__: datasets fingerprints
functions of __main__ by their code), the others imported and their main() called. Before that:
  - common.MODEL is the tiny model (TINY_MODEL, default /tmp/tiny-qwen) and common.EVAL_SAMPLES 4 (EVAL_SAMPLES);
  - datasets.load_dataset("openai/gsm8k", "main") reads FAKE_GSM8K (default /tmp/fake-gsm8k) instead of the Hub;
  - SFTConfig, DPOConfig and GRPOConfig get the TOY values below (use_cpu=True keeps bf16=True legal on a CPU), then
    the key=value arguments (Python literals: max_length=1024 log_completions=False eval_strategy='"no"');
  - make_pairs.py samples 8 prompts × 4 completions of 24 tokens; FAKE_CORRECTNESS=1 scores them right, wrong, right,
    ... (a random model never solves a problem, and DPO needs pairs).
  - self_improve.py samples and evaluates 16 tokens an answer; FAKE_CORRECTNESS=1 replaces each round's samples (after
    generating them) with scripted answers, all finished: in even problems' groups one right answer and the others one
    same wrong answer, in odd problems' the reverse, so the verifier, the majority vote and no filter keep different
    samples (a random model's answers are all wrong and rarely finished: every filter would keep nothing).
Each config prints one "[smoke]" line with what was overridden; "[smoke] OK" at the end. See scripts/export/smoke.md.
"""
import ast
import importlib
import json
import os
import runpy
import sys

TINY = os.environ.get("TINY_MODEL", "/tmp/tiny-qwen")
GSM8K = os.environ.get("FAKE_GSM8K", "/tmp/fake-gsm8k")

COMMON = dict(use_cpu=True, save_steps=2, logging_steps=1)
TOY = {
    "SFTConfig": dict(COMMON, max_steps=3, per_device_train_batch_size=2, gradient_accumulation_steps=2, eval_steps=2, max_length=384),
    "DPOConfig": dict(COMMON, max_steps=3, per_device_train_batch_size=2, gradient_accumulation_steps=2, eval_steps=2, max_length=384),
    # 4 × 2 = 8 completions per generation batch, two groups of 4.
    "GRPOConfig": dict(COMMON, max_steps=2, per_device_train_batch_size=4, gradient_accumulation_steps=2, steps_per_generation=2, num_generations=4,
                       per_device_eval_batch_size=4, max_completion_length=48, eval_steps=1),
}
ALWAYS = {"use_cpu", "max_steps"}  # set even where the script leaves them to TRL (num_train_epochs=1 on real data)


def shrink(cls, toy, extra):
    def config(**kwargs):
        overrides = {k: v for k, v in {**toy, **extra}.items() if k in kwargs or k in extra or k in ALWAYS}
        print(f"[smoke] {cls.__name__}: {json.dumps({k: kwargs.get(k) for k in overrides})} -> {json.dumps(overrides)}", flush=True)
        return cls(**{**kwargs, **overrides})

    return config


def scripted_samples(module):
    generate = module.sample

    def sample(model, tokenizer, problems):
        texts, _ = generate(model, tokenizer, problems)  # the real generate call runs; its answers are replaced
        g, out = module.NUM_GENERATIONS, []
        for i, problem in enumerate(problems):
            right, wrong = f"#### {problem['answer']}", f"#### {int(problem['answer']) + 1}"
            out += [right] + [wrong] * (g - 1) if i % 2 == 0 else [wrong] + [right] * (g - 1)
        assert len(out) == len(texts)
        return out, [True] * len(out)

    return sample


def main():
    project, script, *sets = sys.argv[1:]
    os.chdir(project)
    sys.path.insert(0, os.getcwd())
    script_args = []  # after "--": the script's own command line (eval.py --model ...)
    if "--" in sets:
        sets, script_args = sets[: sets.index("--")], sets[sets.index("--") + 1 :]
    extra = {k: ast.literal_eval(v) for k, v in (s.split("=", 1) for s in sets)}

    import common

    vision = hasattr(common, "draw_scene")
    common.MODEL = os.environ.get("TINY_VL_MODEL", "/tmp/tiny-qwen-vl") if vision else TINY
    common.EVAL_SAMPLES = int(os.environ.get("EVAL_SAMPLES", 4))
    if vision:
        # The vision project: its processor without torchvision (make_tiny_vl.py says why), and a random model kept
        # from sampling vision tokens (GRPOTrainer builds its own generation config).
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from make_tiny_vl import VISION_TOKENS, image_only_processor

        pixels = (common.GRID_SIZE * common.CELL_PIXELS) ** 2
        common.load_processor = lambda: image_only_processor(common.MODEL, pixels)
        suppress = common.load_processor().tokenizer.convert_tokens_to_ids(VISION_TOKENS)
        TOY["GRPOConfig"] = dict(TOY["GRPOConfig"], generation_kwargs={"suppress_tokens": suppress}, max_completion_length=8)
        TOY["SFTConfig"] = {k: v for k, v in TOY["SFTConfig"].items() if k != "max_length"}
        ALWAYS.add("generation_kwargs")

    import datasets

    load = datasets.load_dataset

    def fake_gsm8k(name, config=None, **kwargs):
        assert (name, config) == (common.DATASET, common.DATASET_CONFIG), (name, config)
        return load("json", data_files={"train": f"{GSM8K}/train.jsonl", "test": f"{GSM8K}/test.jsonl"})

    datasets.load_dataset = fake_gsm8k

    import trl

    for name, toy in TOY.items():
        setattr(trl, name, shrink(getattr(trl, name), toy, extra))

    if script in ("prepare_data.py", "eval.py"):
        sys.argv = [script, *script_args]
        runpy.run_path(script, run_name="__main__")
    else:
        module = importlib.import_module(script.removesuffix(".py"))
        if script == "make_pairs.py":
            module.NUM_PROMPTS, module.SAMPLES_PER_PROMPT, module.MAX_NEW_TOKENS, module.BATCH_PROMPTS = 8, 4, 24, 4
            if os.environ.get("FAKE_CORRECTNESS"):
                module.correctness_reward = lambda group, answers: [float(i % 2 == 0) for i in range(len(group))]
        if script == "self_improve.py":
            module.MAX_NEW_TOKENS = 16
            if os.environ.get("FAKE_CORRECTNESS"):
                module.sample = scripted_samples(module)
        module.main()
    print("[smoke] OK", project, script, flush=True)


if __name__ == "__main__":
    main()
