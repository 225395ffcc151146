/**
 * README.md and requirements.txt of an exported project: the pieces every project's README shares (files table,
 * warnings, accelerate commands, versions, the mapping table), and the GSM8K projects' README. Every number in them
 * comes from code, none is typed here.
 */
import { TRL_VERSION } from '@/content/trl-defaults';
import { findModel } from '@/lib/dist/models';
import { ACCELERATE_CONFIGS } from './accelerate';
import { hardwareMarkdown, hardwareTable, logitsGB, type HardwareStep } from './hardware';
import { REAL_MAX_COMPLETION, REAL_MAX_LENGTH, MICRO_BATCH_CAP, type ExportMethod, type Plan } from './mapping';
import { agentEpisodeRules, EPISODE_OVER, type AgentEpisodeRules } from './python/environment';
import { shortNumber, wrap } from './py';
import { microBatch, type Row } from './rules';
import { scopeMarkdown, type ExportScope } from './scope';
import { DATASET, MODEL, MODEL_ALTERNATIVE, MODEL_SHAPE, PINS, SMOKE_PINS, SMOKE_TORCH, TORCH_REQUIREMENT, TRL_RELEASE, VLLM_REQUIREMENT, type Pin } from './versions';

/** Tokens a GSM8K prompt may take with the system prompt and chat template (the longest questions are ~200). */
export const PROMPT_BUDGET = 256;
export const CHAPTER_LINK = '/chapters/pipeline/#take-it-to-a-real-gpu';

export const RL_SCRIPT: Record<ExportMethod, string | null> = { sft: null, grpo: 'train_grpo.py', dpo: 'train_dpo.py', agent: 'train_agent.py' };

/** For GRPO projects: why the on-policy step survives more GPUs (mapping.ts steps_per_generation). */
const GENERATION_SCALING = `, and each generation feeds the lab's number of optimizer steps (\`steps_per_generation\` counts
micro-steps of each process, so the script scales it with the accumulation): the run stays as on- or off-policy as the lab's`;

/** A package installed unpinned, in the build that matches the reader's torch and CUDA (torchvision for the vision project). */
export interface BuildRequirement {
  spec: string;
  why: string;
}

/** What a project needs beyond the GSM8K projects' PINS and torch. */
export interface ExtraRequirements {
  pins?: readonly Pin[];
  builds?: readonly BuildRequirement[];
}

/** requirements.txt: torch (and any other build) first, unpinned, then every pin with its reason. */
export function requirementsTxt(extra: ExtraRequirements = {}): string {
  const builds = extra.builds ?? [];
  const lines = [...PINS, ...(extra.pins ?? [])].map((p) => `${p.name}==${p.version}`.padEnd(24) + `# ${p.why}`);
  const first = ['torch', ...builds.map((b) => b.spec)];
  return `# Exact versions for TRL ${TRL_VERSION}. Install ${first.join(' and ')} first, the build${first.length > 1 ? 's' : ''} for your CUDA (${TORCH_REQUIREMENT.why}).
${TORCH_REQUIREMENT.spec}
${builds.map((b) => `${b.spec.padEnd(30)}# ${b.why}\n`).join('')}${lines.join('\n')}
`;
}

/** The README's versions table: every pin, then the builds left unpinned. */
export function versionsTable(extra: ExtraRequirements = {}): string {
  return [
    '| package | version | why |',
    '| --- | --- | --- |',
    ...[...PINS, ...(extra.pins ?? [])].map((p) => `| ${p.name} | ${p.version} | ${cell(p.why)} |`),
    ...(extra.builds ?? []).map((b) => `| ${b.spec} | not pinned | ${cell(b.why)} |`),
  ].join('\n');
}

/** The README's files table; a row may name several files (the vision project's scenes). */
export function filesTable(rows: readonly (readonly [string | readonly string[], string])[]): string {
  const names = (files: string | readonly string[]) => (typeof files === 'string' ? [files] : files).map((f) => `\`${f}\``).join(', ');
  return ['| file | what it does |', '| --- | --- |', ...rows.map(([files, what]) => `| ${names(files)} | ${what} |`)].join('\n');
}

/** The accelerate configs' rows of a files table. */
export const accelerateFileRows = (): [string, string][] => ACCELERATE_CONFIGS.map((c): [string, string] => [c.path, c.summary]);

/** A training script launched on two GPUs with the DDP config (the README's "Run it, in order"). */
export const accelerateLaunch = (script: string) => `accelerate launch --config_file accelerate/multi_gpu.yaml --num_processes 2 ${script}`;

/** The plan's warnings as one block quote, each marked. */
export const warningsMarkdown = (warnings: readonly string[]) => warnings.map((w) => `> **Warning.** ${w}`).join('\n>\n');

/** The training steps whose memory the README tabulates. */
export function hardwareSteps(plan: Plan): HardwareStep[] {
  const batch = plan.rows.find((r) => r.field === 'per_device_train_batch_size')!.value as number;
  const sft: HardwareStep = { script: 'train_sft.py', seqLen: REAL_MAX_LENGTH, microBatch: plan.method === 'sft' ? microBatch(batch, MICRO_BATCH_CAP.sft) : MICRO_BATCH_CAP.sft };
  if (plan.method === 'sft') return [sft];
  if (plan.method === 'dpo') return [sft, { script: 'train_dpo.py', seqLen: REAL_MAX_LENGTH, microBatch: 2 * microBatch(batch, MICRO_BATCH_CAP.dpo) }];
  const m = plan.method;
  return [sft, { script: RL_SCRIPT[m]!, seqLen: PROMPT_BUDGET + REAL_MAX_COMPLETION[m], microBatch: microBatch(batch, MICRO_BATCH_CAP[m]) }];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const value = (v: Row['value']) => (typeof v === 'number' ? shortNumber(v) : String(v));

export function mappingMarkdown(rows: readonly Row[]): string {
  return [
    '| lab field | lab value | in TRL | note |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| \`${r.field}\` | ${cell(value(r.value))} | ${r.status === 'none' ? '**no counterpart**' : `${r.status === 'changed' ? '**changed:** ' : ''}\`${cell(r.target)}\``} | ${cell(r.note)} |`),
  ].join('\n');
}

/** The README's section on AgentEnvironment, for an agent run whose episode rules need one (python/environment.ts). */
function environmentSection(rules: AgentEpisodeRules): string {
  const para = (text: string) => wrap(text, 118).join('\n');
  const tools = [
    rules.calculator ? `\`calculator\`${rules.toolAfterVerdict ? ', which answers only after a wrong answer was told `?` (`TOOL_AFTER_VERDICT`; an earlier call gets `{"error": ...}`)' : ''}${rules.failureRate > 0 ? `, which fails ${shortNumber(+(rules.failureRate * 100).toPrecision(3))} % of well-formed calls by the lab's seeded rule (\`call_fails\`: a hash of a salt and the episode's calls so far, so a call made again draws again); TRL answers a failure with \`{"error": ...}\`` : ''}` : '',
    rules.attempts > 1
      ? `\`submit_answer\`: a wrong answer while tries are left gets the lab's reply \`?\` (never the right value) and the model tries again, ${rules.attempts} tries in all; a right answer and the last try both get "${EPISODE_OVER}", as the lab gives no verdict. \`reset\` appends these rules to the question`
      : '',
    rules.memory ? "`remember(key, value)` and `recall(key)`, the lab's memory tool: one store per rollout, emptied by `reset`; a read of a key never stored gets `?`" : '',
  ].filter(Boolean);
  const free = [rules.attempts > 1 ? 'answers' : '', rules.memory ? 'memory writes' : ''].filter(Boolean);
  const lost = [
    rules.memory ? ['task', "the memory task's 12-token window: TRL keeps the whole conversation in context, and only a `rollout_func` that owns generation could drop turns"] : null,
    rules.attempts > 1 ? ['answer_attempts', "the lab's answer at the end of a turn: TRL continues a rollout only after a tool call, so answers are tool calls"] : null,
    rules.failureRate > 0 ? ['tool_failure_rate', "the lab's salt per generation batch: an environment is not told its batch"] : null,
    rules.toolAfterVerdict ? ['tool_after_verdict', "the lab's silence before the verdict (TRL answers every call) and its checkpoint whose second tries sometimes call"] : null,
  ].filter((x): x is string[] => x !== null);
  return `
## The lab's episode rules: \`AgentEnvironment\`

${para(`The lab's episodes are more than one generation with a calculator, so \`train_agent.py\` passes \`environment_factory\` to \`GRPOTrainer\` in place of \`tools=[calculator]\` (trl/trainer/grpo_trainer.py:266-282 at ${TRL_VERSION}; TRL marks it experimental and warns once). TRL makes one \`common.AgentEnvironment\` per rollout, calls its \`reset(**row)\` with the dataset row (the answer included) before generating, and offers its public methods as tools:`)}

${tools.map((t) => `- ${t}.`).join('\n')}

${para(`Each reward function is wrapped in \`scored_as_in_lab\`, which reads the rollout through its environment (TRL passes the instances to every reward function as \`environments\`)${rules.attempts > 1 ? ': the last try is the answer scored' : ''}${free.length ? `${rules.attempts > 1 ? ', and' : ':'} ${free.join(' and ')}, which the lab never counted as calls, cost nothing` : ''}. The environment has no \`get_reward\`: TRL would add it as one more reward at weight 1, where the lab weighs correctness by its own weight.`)}

${para(`Not reproduced (see the table below): ${lost.map(([field, what]) => `${what} (\`${field}\`)`).join('; ')}. \`train_sft.py\` teaches the calculator only, and \`eval.py\` runs its own loop with the plain calculator: one try, failures drawn with \`random.random()\`.`)}
`;
}

function files(method: ExportMethod, customReward: boolean): [string, string][] {
  const rl = RL_SCRIPT[method];
  return [
    ['README.md', 'this file'],
    ['requirements.txt', `exact versions of TRL ${TRL_RELEASE} and the libraries around it`],
    ['common.py', `the model (\`MODEL\`), the prompt, the lab's answer parser and reward functions in Python${method === 'agent' ? ', the calculator tool' : ''}`],
    ['prepare_data.py', `${DATASET.id} from the Hub into \`data/\`: prompts with the number after \`####\`, and SFT examples`],
    ['train_sft.py', method === 'sft' ? 'the lab run: SFTConfig with its values' : `SFT on GSM8K solutions${method === 'agent' ? ' as calculator conversations' : ''}: the format the RL step rewards`],
    ...(method === 'dpo' ? ([['make_pairs.py', 'samples the SFT model and keeps (right, wrong) completions as (chosen, rejected)']] as [string, string][]) : []),
    ...(rl ? ([[rl, `the lab run: ${method === 'dpo' ? 'DPOConfig' : 'GRPOConfig'} with its values${method === 'agent' ? ', the calculator as a tool' : ''}`]] as [string, string][]) : []),
    ...(customReward
      ? ([
          ['custom_reward.py', 'your reward function from the lab, with TRL’s reward signature (a stub to port, unless your code was one of the editor’s examples)'],
          ['custom_reward.js', 'your reward function as you wrote it in the lab'],
        ] as [string, string][])
      : []),
    ['eval.py', 'held-out accuracy on GSM8K’s test split, greedy, with the same parser'],
    ...accelerateFileRows(),
    ['lab-run.json', 'the lab settings this project was exported from'],
  ];
}

export function readmeMd(plan: Plan, lab: { name: string; title: string; preset: string; changed: string[]; scope: ExportScope }): string {
  const { method } = plan;
  const rl = RL_SCRIPT[method];
  const last = rl ? `outputs/${rl.replace(/^train_|\.py$/g, '')}` : 'outputs/sft';
  const steps = hardwareSteps(plan);
  const tables = steps.map((s) => ({ step: s, table: hardwareTable(s) }));
  const params = tables[0].table.params;
  const model = findModel(MODEL_SHAPE);
  const fitLine = (t: (typeof tables)[number]) =>
    t.table.smallest
      ? `smallest setting that fits: ${t.table.smallest.gpus} GPU${t.table.smallest.gpus > 1 ? 's' : ''} of ${t.table.smallest.gpuGB} GB${t.table.smallest.gpus > 1 ? ` (ZeRO ${t.table.smallest.stage})` : ''}`
      : 'fits on none of these settings: lower per_device_train_batch_size and raise gradient_accumulation_steps';
  // init_from=base in the agent lab: RL starts from MODEL itself (START_FROM = MODEL in train_agent.py).
  const skipSft = typeof plan.constants.START_FROM?.value === 'object';
  const commands = [
    `pip install -r requirements.txt          # after torch for your CUDA`,
    `python prepare_data.py                   # 1. data: CPU and network, a minute`,
    ...(skipSft
      ? [`# 2. SFT: skipped, as in the run (init_from=base)`]
      : [`${accelerateLaunch('train_sft.py')}   # 2. SFT (or: python train_sft.py on one GPU)`]),
    ...(method === 'dpo' ? [`python make_pairs.py                     # 3a. pairs from the SFT model: one GPU`] : []),
    ...(rl ? [`${accelerateLaunch(rl)}   # 3. ${method === 'dpo' ? 'DPO' : 'GRPO'}: the lab run`] : []),
    `python eval.py --model ${skipSft ? MODEL : 'outputs/sft'}          # 4. accuracy before${rl ? ' RL' : ''}`,
    ...(rl ? [`python eval.py --model ${last}        #    and after`] : []),
  ];
  const warnings = warningsMarkdown(plan.warnings);
  const episode = agentEpisodeRules(plan);
  return `# ${lab.name}: a lab run on a real GPU with TRL ${TRL_RELEASE}

Exported from Agentic RL Lab (the \`${method}\` trainer, ${lab.title}; preset \`${lab.preset}\`${lab.changed.length ? `, with ${lab.changed.map((c) => `\`${c}\``).join(', ')}` : ''}). The lab trained a
~30k-parameter model on arithmetic in a browser; this project runs the same method with TRL ${TRL_VERSION} on
\`${MODEL}\` (${(params / 1e9).toFixed(2)}B parameters) and ${DATASET.id}, from data preparation to serving. Chapter 7 of the course walks
through it: ${CHAPTER_LINK}.
${warnings ? `\n${warnings}\n` : ''}
${scopeMarkdown(lab.scope)}
## What was run, and what was not

The course's CI runs every step of its default projects (sft, sft with LoRA, grpo, dpo, agent) on each change, at toy
scale on a CPU: a random 2-layer Qwen3 with Qwen3's chat template in place of \`${MODEL}\`, 72 made-up GSM8K-style
problems, a few steps of each trainer, with exactly the versions in \`requirements.txt\` (${SMOKE_PINS.map((p) => `${p.name} ${p.version}`).join(', ')}; not
deepspeed) and ${SMOKE_TORCH.replace('==', ' ')} for CPU. That shows the scripts run, and that every keyword and data format
is one TRL ${TRL_RELEASE} accepts. It shows nothing about accuracy, memory or speed on a GPU: the hardware table below is
a calculation, not a measurement. To run it for real you need torch built for your CUDA (bf16: an Ampere or newer GPU),
\`pip install -r requirements.txt\`, and a GPU the hardware table says is enough.

## Files

${filesTable(files(method, plan.rewards.some((r) => r.fn === 'custom_reward')))}

Change the model in one place, \`MODEL\` in \`common.py\` (\`${MODEL_ALTERNATIVE}\` is the same family at this size).

## Run it, in order

\`\`\`bash
${commands.join('\n')}
\`\`\`

Each training script also runs as \`python <script>\` on one GPU. For more GPUs change \`--num_processes\`, and for
a model too large for plain data parallelism use \`accelerate/zero2.yaml\` or \`accelerate/zero3.yaml\` (DeepSpeed).
Change nothing else: each script splits the lab's batch over the processes itself (\`batch_layout\` in \`common.py\`
reads \`WORLD_SIZE\`, which \`accelerate launch\` sets), so the optimizer sees the lab's examples per step on 1, 2 or 8
GPUs${method === 'grpo' || method === 'agent' ? GENERATION_SCALING : ''}. A
number of GPUs that does not divide the batch stops at once with a message.
${episode ? environmentSection(episode) : ''}
### Serve

\`\`\`bash
pip install "${VLLM_REQUIREMENT}"       # the range TRL ${TRL_RELEASE}'s vllm extra accepts
vllm serve ${last} --served-model-name gsm8k${method === 'agent' ? ' --enable-auto-tool-choice --tool-call-parser hermes' : ''}
curl localhost:8000/v1/chat/completions -H 'Content-Type: application/json' \\
  -d '{"model": "gsm8k", "messages": [{"role": "user", "content": "Tom has 3 boxes of 12 eggs. How many eggs?"}], "chat_template_kwargs": {"enable_thinking": false}}'
\`\`\`

Without vLLM, \`transformers\` alone serves it: \`AutoModelForCausalLM.from_pretrained("${last}")\` and
\`generate\`, as \`eval.py\` does.${method === 'agent' ? ' With vLLM, pass the calculator\'s schema in `tools` and run the calls your client receives: the server does not execute tools.' : ''}

## Hardware

Per-GPU memory of each training step, from chapter 3's memory calculator (\`lib/dist/memory.ts\`) for ${model.name}
(${(params / 1e9).toFixed(2)}B parameters): 16 bytes a parameter of model states, as mixed precision needs them (the
scripts load fp32 weights, \`model_init_kwargs={"dtype": "float32"}\`, with fp32 gradients and Adam's two fp32 moments:
4 + 4 + 8; the calculator's bf16 weights and gradients with an fp32 master copy add up to the same 16), activations in
bf16 with gradient checkpointing, GB = 10⁹ bytes. Not counted: ${method === 'dpo' ? 'the frozen reference model (' + ((params * 4) / 1e9).toFixed(1) + ' GB: TRL loads it in the same fp32), ' : method === 'sft' ? '' : 'the reference model when `beta` > 0 (' + ((params * 4) / 1e9).toFixed(1) + ' GB: TRL loads it in the same fp32), the key/value cache of generation, '}CUDA's own ~1 GB and fragmentation: leave a margin.${plan.lora ? ' The run used LoRA: the calculator counts full fine-tuning; train_sft.py loads the frozen base in bf16 (`model_init_kwargs={"dtype": "bfloat16"}`, ' + ((params * 2) / 1e9).toFixed(1) + ' GB) and only the fp32 adapters have gradients and Adam state, so that step needs far less (about the bf16 weights plus activations).' : ''}

${tables
  .map(
    (t) => `### \`${t.step.script}\`: ${t.step.seqLen} tokens a sequence, ${t.step.microBatch} sequences per GPU${t.step.script === 'train_dpo.py' ? ' (chosen and rejected)' : ''}

${fitLine(t)}. ZeRO shards only across GPUs: on one GPU every stage needs the same memory. The logits, not in
the table, take up to ${logitsGB(t.step).toFixed(1)} GB more if a step materialises them in fp32 (${t.step.microBatch} × ${t.step.seqLen} tokens × ${model.vocab.toLocaleString('en-US')} vocabulary × 4 bytes).

${hardwareMarkdown(t.table)}`,
  )
  .join('\n\n')}

## What carried over

Every setting of the lab run, and what it became here. **Changed** means the lab's value only makes sense for its
tiny model, and the script uses a value right for ${MODEL}, with a comment that names the lab's value; **no counterpart**
says why nothing in TRL corresponds to it.

${mappingMarkdown(plan.rows)}

## Versions

TRL ${TRL_VERSION}, pinned with the libraries around it in \`requirements.txt\`:

${versionsTable()}
`;
}
