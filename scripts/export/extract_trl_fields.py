#!/usr/bin/env python3
"""Extract the dataclass field names the TRL export may pass, from the sources of the releases it pins.

The export (lib/export/) writes Python that builds SFTConfig, GRPOConfig, DPOConfig and peft.LoraConfig with keyword
arguments, and Accelerate config files. tests/unit/export/ checks every keyword and key against the lists this script
writes to lib/export/trl-fields.json, so a misspelt or removed field fails a test instead of a rented GPU.

Reads source with `ast` only (nothing is imported or executed), from:
  --trl-git / --trl-tag                TRL's git directory and release tag: trl/trainer/{base,sft,dpo,grpo}_config.py
  --peft-git / --peft-tag              PEFT's: src/peft/config.py, src/peft/tuners/lora/config.py
  --accelerate-git / --accelerate-tag  Accelerate's: ClusterConfig (config files) and `accelerate launch` flags
  --training-args FILE (repeatable)    transformers' TrainingArguments: a wheel (.whl) or a training_args.py; with
                                       several, only the fields all of them have are kept (e.g. a release before and
                                       one after the pinned one, so the list holds for the release in between)

Example (the run that wrote the committed JSON). The TRL mirror held no v1.13.0 tag, so --trl-git was a repository
made from the release's wheel (a wheel's .py files are the tag's sources), trl-1.13.0-py3-none-any.whl with sha256
  7c7ae0c72e969450221cf4c7cfe69c532c5a83c727204f1c8ced38a9b79134ec
committed once and tagged v1.13.0. The "commit" the JSON records for TRL is therefore that local commit (its hash
depends on who committed when), not a commit of huggingface/trl:
  mkdir /tmp/trl-v1.13.0-from-wheel && cd /tmp/trl-v1.13.0-from-wheel && git init -q && unzip -q trl-1.13.0-py3-none-any.whl 'trl/*' \\
    && git add trl && git commit -qm "trl/ of trl-1.13.0-py3-none-any.whl" && git tag v1.13.0
  PEFT 0.21.0 and Accelerate 1.15.0 (the pins; their mirrors stop at v0.20.0 and v1.14.0) the same way, with the wheel's
  package under src/ (peft-0.21.0-py3-none-any.whl sha256 b64eb75fd9dece7401c70e675b8d9de024993b70483691b41c62876f0c7809b7,
  accelerate-1.15.0-py3-none-any.whl sha256 97eacca0b73e45cb867dbf8c5d5d4dc32219544300e0c8992c7334dc2ef33cec):
  mkdir -p /tmp/peft-v0.21.0-from-wheel/src && cd /tmp/peft-v0.21.0-from-wheel && git init -q \\
    && unzip -q peft-0.21.0-py3-none-any.whl 'peft/*' -d src && git add src && git commit -qm wheel && git tag v0.21.0
  python3 scripts/export/extract_trl_fields.py \\
    --trl-git /tmp/trl-v1.13.0-from-wheel --trl-tag v1.13.0 \\
    --peft-git /tmp/peft-v0.21.0-from-wheel --peft-tag v0.21.0 \\
    --accelerate-git /tmp/accelerate-v1.15.0-from-wheel --accelerate-tag v1.15.0 \\
    --training-args transformers-4.57.6-py3-none-any.whl --training-args transformers-5.17.0-py3-none-any.whl \\
    --out lib/export/trl-fields.json
"""
import argparse
import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile


def git_show(git_dir, tag, path):
    return subprocess.run(["git", "-C", git_dir, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True).stdout


def git_commit(git_dir, tag):
    return subprocess.run(["git", "-C", git_dir, "rev-parse", f"{tag}^{{commit}}"], check=True, capture_output=True, text=True).stdout.strip()


def classes(source):
    """{class name: (base names, own annotated field names in order)} for every top-level class of a module."""
    out = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "?" for b in node.bases]
        fields = []
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                if "ClassVar" in ast.unparse(item.annotation):
                    continue  # not a dataclass field
                fields.append(item.target.id)
        out[node.name] = (bases, fields)
    return out


def resolved(known, name):
    """A class's fields with its known bases' fields first (dataclass order), each name once."""
    bases, own = known[name]
    fields = []
    for base in bases:
        if base in known:
            fields += [f for f in resolved(known, base) if f not in fields]
    return fields + [f for f in own if f not in fields]


def launch_flags(source):
    """Every `--flag` that `accelerate launch` declares with add_argument (its config file keys become these)."""
    flags = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                    flags.add(arg.value[2:].replace("-", "_"))
    return sorted(flags)


def training_args_source(path):
    """(label, sha256, text) of transformers' training_args.py from a wheel or a file."""
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if path.endswith(".whl"):
        with zipfile.ZipFile(path) as wheel:
            text = wheel.read("transformers/training_args.py").decode("utf-8")
        version = re.match(r"transformers-([^-]+)-", os.path.basename(path))
        return (f"transformers {version.group(1) if version else '?'} ({os.path.basename(path)})", digest, text)
    with open(path, encoding="utf-8") as f:
        return (os.path.basename(path), digest, f.read())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("trl", "peft", "accelerate"):
        parser.add_argument(f"--{name}-git", required=True)
        parser.add_argument(f"--{name}-tag", required=True)
    parser.add_argument("--training-args", action="append", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    # transformers' TrainingArguments: the fields every given release has.
    ta_sources, ta_sets = [], []
    for path in args.training_args:
        label, digest, text = training_args_source(path)
        fields = resolved(classes(text), "TrainingArguments")
        ta_sources.append({"source": label, "sha256": digest, "fields": len(fields)})
        ta_sets.append(fields)
    training_args = [f for f in ta_sets[0] if all(f in s for s in ta_sets[1:])]
    not_in_all = sorted({f for s in ta_sets for f in s} - set(training_args))

    trl_files = ["trl/trainer/base_config.py", "trl/trainer/sft_config.py", "trl/trainer/dpo_config.py", "trl/trainer/grpo_config.py"]
    known = {"TrainingArguments": ([], training_args)}
    for path in trl_files:
        known.update(classes(git_show(args.trl_git, args.trl_tag, path)))
    peft_known = {}
    for path in ("src/peft/config.py", "src/peft/tuners/lora/config.py"):
        peft_known.update(classes(git_show(args.peft_git, args.peft_tag, path)))
    acc_known = classes(git_show(args.accelerate_git, args.accelerate_tag, "src/accelerate/commands/config/config_args.py"))
    flags = launch_flags(git_show(args.accelerate_git, args.accelerate_tag, "src/accelerate/commands/launch.py"))

    config = lambda name: {"bases": known[name][0], "own": known[name][1], "fields": resolved(known, name)}
    data = {
        "_comment": "Written by scripts/export/extract_trl_fields.py from the sources below; do not edit by hand.",
        "sources": {
            "trl": {"repo": "huggingface/trl", "tag": args.trl_tag, "commit": git_commit(args.trl_git, args.trl_tag), "files": trl_files},
            "transformers": {"class": "TrainingArguments", "file": "transformers/training_args.py", "versions": ta_sources, "rule": "fields present in every version listed"},
            "peft": {"repo": "huggingface/peft", "tag": args.peft_tag, "commit": git_commit(args.peft_git, args.peft_tag), "files": ["src/peft/config.py", "src/peft/tuners/lora/config.py"]},
            "accelerate": {"repo": "huggingface/accelerate", "tag": args.accelerate_tag, "commit": git_commit(args.accelerate_git, args.accelerate_tag), "files": ["src/accelerate/commands/config/config_args.py", "src/accelerate/commands/launch.py"]},
        },
        "TrainingArguments": {"fields": training_args, "not_in_every_version": not_in_all},
        "_BaseConfig": config("_BaseConfig"),
        "SFTConfig": config("SFTConfig"),
        "DPOConfig": config("DPOConfig"),
        "GRPOConfig": config("GRPOConfig"),
        "LoraConfig": {"fields": resolved(peft_known, "LoraConfig")},
        "accelerate": {"config_file_keys": resolved(acc_known, "ClusterConfig"), "launch_flags": flags},
    }
    for name in ("SFTConfig", "DPOConfig", "GRPOConfig"):
        if known[name][0] != ["_BaseConfig"]:
            sys.exit(f"{name} no longer subclasses _BaseConfig: check the extraction")
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}: " + ", ".join(f"{k} {len(v['fields'])}" for k, v in data.items() if isinstance(v, dict) and "fields" in v))


if __name__ == "__main__":
    main()
