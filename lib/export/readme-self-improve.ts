/** README.md of the self-improvement project. Every number in it comes from code, none is typed here. */
import { TRL_VERSION } from '@/content/trl-defaults';
import { findModel } from '@/lib/dist/models';
import { ACCELERATE_CONFIGS } from './accelerate';
import { hardwareMarkdown, hardwareTable, logitsGB } from './hardware';
import { batchLayout, MICRO_BATCH_CAP, REAL_MAX_LENGTH } from './mapping';
import { LOOP_SCRIPT, SAMPLE_BATCH, SAMPLE_MAX_TOKENS } from './python/self-improve';
import { CHAPTER_LINK, mappingMarkdown, PROMPT_BUDGET } from './readme';
import type { SelfImprovePlan } from './self-improve';
import { scopeMarkdown, type ExportScope } from './scope';
import { DATASET, MODEL, MODEL_ALTERNATIVE, MODEL_SHAPE, PINS, SMOKE_PINS, SMOKE_TORCH, TRL_RELEASE, VLLM_REQUIREMENT } from './versions';

/** GB of the key/value cache one generate call of the loop holds: fp32 keys and values of every layer, every token. */
export function samplingCacheGB(): number {
  const m = findModel(MODEL_SHAPE);
  const bytesPerToken = m.layers * m.kvHeads * m.headDim * 2 * 4;
  return (SAMPLE_BATCH * (PROMPT_BUDGET + SAMPLE_MAX_TOKENS) * bytesPerToken) / 1e9;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function selfImproveReadme(plan: SelfImprovePlan, lab: { name: string; title: string; preset: string; changed: string[]; scope: ExportScope }): string {
  const value = (name: string) => plan.constants[name].value as number | string;
  const batch = value('BATCH_PER_STEP') as number;
  const step = { script: LOOP_SCRIPT, seqLen: REAL_MAX_LENGTH, microBatch: batchLayout(batch, MICRO_BATCH_CAP.sft, 1)!.micro };
  const table = hardwareTable(step);
  const model = findModel(MODEL_SHAPE);
  const warnings = plan.warnings.map((w) => `> **Warning.** ${w}`).join('\n>\n');
  const fit = table.smallest
    ? `smallest setting that fits: ${table.smallest.gpus} GPU${table.smallest.gpus > 1 ? 's' : ''} of ${table.smallest.gpuGB} GB${table.smallest.gpus > 1 ? ` (ZeRO ${table.smallest.stage})` : ''}`
    : 'fits on none of these settings: lower per_device_train_batch_size';
  return `# ${lab.name}: the self-improvement lab on a real model with TRL ${TRL_RELEASE}

Exported from Agentic RL Lab (the \`self_improve\` trainer, ${lab.title}; preset \`${lab.preset}\`${lab.changed.length ? `, with ${lab.changed.map((c) => `\`${c}\``).join(', ')}` : ''}).
The lab taught a ~30k-parameter model longer sums than any demonstration showed it, from its own filtered answers; this
project runs the same loop with TRL ${TRL_VERSION} on \`${MODEL}\` and ${DATASET.id}. Chapter 7 of the course walks through the
exported projects: ${CHAPTER_LINK}.
${warnings ? `\n${warnings}\n` : ''}
${scopeMarkdown(lab.scope)}
## The method

Expert iteration: sample answers, keep the ones a filter accepts, fine-tune on them, repeat. STaR (Zelikman et al.
2022, "STaR: Bootstrapping Reasoning With Reasoning") keeps the rationales that reach the right answer; ReST-EM (Singh
et al. 2023, "Beyond Human Data: Scaling Self-Training for Problem-Solving with Language Models") shows the same loop is
expectation-maximisation with a binary reward, and scales it on GSM8K and MATH. With no verifier, the \`majority\`
filter keeps the answers most samples agree on (self-consistency, Wang et al. 2022, used as a label). TRL has no
trainer for the loop: each round's fine-tuning is \`SFTTrainer\`, and \`${LOOP_SCRIPT}\` is the loop around it.

| round | what \`${LOOP_SCRIPT}\` does |
| --- | --- |
| 0 | SFT on GSM8K's reference solutions of the problems of at most \`DEMONSTRATION_DIFFICULTY\` steps: the demonstrations |
| 1, 2, … | sample \`NUM_GENERATIONS\` answers to \`NUM_PROMPTS\` problems one step longer (every \`ROUNDS_PER_DIFFICULTY\` rounds one more, up to \`TARGET_DIFFICULTY\`), keep what \`FILTER\` keeps, add them to the pool of every round's kept samples, SFT on batches of pool samples and demonstrations (\`DEMO_FRACTION\` demonstrations) |
| after each | greedy held-out accuracy at every difficulty (\`eval.evaluate\`), one line of \`outputs/self_improve/rounds.jsonl\` with the lab's counts: \`sample_accuracy\`, \`kept\`, \`kept_precision\`, \`kept_wrong\`, \`pool_size\`, \`pool_added\`, \`loss\` |

## What differs from the lab

- **Task and difficulty.** The lab's sums are graded by how many digit columns they span; GSM8K's problems here by how
  many steps their reference solution takes (its lines before \`####\`, \`common.difficulty\`). The last difficulty,
  \`TARGET_DIFFICULTY\`, holds every longer problem too. The verifier is the other projects' \`correctness_reward\`:
  the integer after \`####\` against GSM8K's answer.
- **Round 0.** The lab's round 0 trains its model from scratch for \`demo_steps\` steps (by default it loads that
  round, trained ahead of time: \`init_from\` sft); a pretrained model needs one pass over the demonstrations, so
  round 0 here runs one, at most \`DEMO_STEPS\` steps.
- **Optimizer.** The lab keeps one Adam through every round; here each round is a new \`SFTTrainer\`, so Adam's moments
  start again each round (the rate stays constant, as the lab's). The model itself carries on from round to round, as
  in the lab; STaR and ReST-EM restart each round from the base model instead.
- **Learning rate.** The lab's suits its tiny model; the scripts use TRL's SFT default (see the table below).

## What was run, and what was not

The course's export smoke test runs every step of this project at toy scale on a CPU: a random 2-layer Qwen3 with
Qwen3's chat template in place of \`${MODEL}\`, a few dozen made-up GSM8K-style problems of one and two steps, two
rounds of a few samples and steps each, with exactly the versions in \`requirements.txt\`
(${SMOKE_PINS.map((p) => `${p.name} ${p.version}`).join(', ')}; not deepspeed) and ${SMOKE_TORCH.replace('==', ' ')} for CPU. That shows the
scripts run and every keyword is one TRL ${TRL_RELEASE} accepts; nothing about accuracy, memory or speed on a GPU.

## Files

| file | what it does |
| --- | --- |
| \`README.md\` | this file |
| \`requirements.txt\` | exact versions of TRL ${TRL_RELEASE} and the libraries around it |
| \`common.py\` | the model (\`MODEL\`), the prompt, GSM8K's parser and verifier, the difficulty of a problem, the round schedule, the filters and the mixture |
| \`prepare_data.py\` | ${DATASET.id} from the Hub into \`data/gsm8k\`: prompt, answer, reference solution, steps |
| \`${LOOP_SCRIPT}\` | the lab run: the rounds, with \`SFTTrainer\` and the run's values |
| \`eval.py\` | held-out accuracy at every difficulty, greedy, with the same verifier |
${ACCELERATE_CONFIGS.map((c) => `| \`${c.path}\` | ${c.summary} |`).join('\n')}
| \`lab-run.json\` | the lab settings this project was exported from |

Change the model in one place, \`MODEL\` in \`common.py\` (\`${MODEL_ALTERNATIVE}\` is the same family at this size).

## Run it, in order

\`\`\`bash
pip install -r requirements.txt          # after torch for your CUDA
python prepare_data.py                   # 1. data: CPU and network, a minute
python eval.py --model ${MODEL}   #    accuracy before the rounds (optional)
python ${LOOP_SCRIPT}                 # 2. the rounds (or accelerate launch --config_file accelerate/multi_gpu.yaml --num_processes 2 ${LOOP_SCRIPT})
python eval.py --model outputs/self_improve   # 3. accuracy after
\`\`\`

With \`accelerate launch\`, each process samples and evaluates its share of the problems and the fine-tuning is
data-parallel; \`batch_layout\` in \`common.py\` splits the lab's batch over the processes, so the optimizer sees the
lab's examples per step on any number of GPUs that divides it. Use \`accelerate/multi_gpu.yaml\`: the loop samples with the
model between trainers, which ZeRO-3's sharded weights do not allow, and the 0.6B model fits plain data parallelism
(see "Hardware"). Sampling is most of a round's time: it uses
transformers' \`generate\`, as \`eval.py\` does. For speed, serve the current model with vLLM (\`pip install
"${VLLM_REQUIREMENT}"\`, the range TRL's vllm extra accepts) and replace \`sample()\` in \`${LOOP_SCRIPT}\` with
requests to it, keeping its (texts, finished) result.

## Hardware

Per-GPU memory of a fine-tuning step, from chapter 3's memory calculator (\`lib/dist/memory.ts\`) for ${model.name}:
16 bytes a parameter of model states (fp32 weights and gradients, Adam's two fp32 moments), activations in bf16 with
gradient checkpointing, ${step.seqLen} tokens a sequence, ${step.microBatch} sequences per GPU. GB = 10⁹ bytes. ${fit[0].toUpperCase()}${fit.slice(1)}.
The logits take up to ${logitsGB(step).toFixed(1)} GB more if a step materialises them in fp32. Sampling holds the fp32
model and the key/value cache of ${SAMPLE_BATCH} sequences of up to ${PROMPT_BUDGET + SAMPLE_MAX_TOKENS} tokens, ${samplingCacheGB().toFixed(1)} GB
(\`SAMPLE_BATCH\` in \`${LOOP_SCRIPT}\` scales it). Not counted: CUDA's own ~1 GB and fragmentation. This is a calculation, not a
measurement.

${hardwareMarkdown(table)}

## What carried over

Every setting of the lab run, and what it became here. **Changed** means the lab's value only makes sense for its tiny
model or its sums, and the project uses the value or the quantity right for ${MODEL} and GSM8K, with the reason.

${mappingMarkdown(plan.rows)}

## Versions

TRL ${TRL_VERSION}, pinned with the libraries around it in \`requirements.txt\`:

| package | version | why |
| --- | --- | --- |
${PINS.map((p) => `| ${p.name} | ${p.version} | ${cell(p.why)} |`).join('\n')}
`;
}
