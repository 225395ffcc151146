/**
 * The mapping from a lab run to TRL: every field accounted for, every keyword a real field of the pinned release,
 * no toy learning rate copied, flawed verifiers exported as flawed, and ppo refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRL_VERSION } from '@/content/trl-defaults';
import { batchLayout, CONFIG_OF, EXPORT_METHODS, exportPlan, LR_WARNING } from '@/lib/export/mapping';
import { exportOf } from '@/lib/spec/export';
import { buildProject, exportSettings } from './helpers';
import { requirementsTxt } from '@/lib/export/readme';
import { shortNumber } from '@/lib/export/py';
import { PINS, SMOKE_PINS, SMOKE_TORCH, TRL_RELEASE } from '@/lib/export/versions';
import { ConfigError } from '@/lib/train/config';
import { TRAINERS } from '@/lib/spec/registry';
import { everyProject, TRL_FIELDS } from './helpers';

const projects = everyProject();

describe('the mapping table', () => {
  it('has one row for every field of every exportable schema, for every preset', () => {
    expect(projects.length).toBeGreaterThan(20);
    for (const { method, project } of projects) {
      expect(project.plan.rows.map((r) => r.field)).toEqual(Object.keys(TRAINERS[method].schema));
      for (const row of project.plan.rows) {
        expect(row.target.length, `${method}.${row.field}`).toBeGreaterThan(0);
        if (row.status !== 'copied') expect(row.note.length, `${method}.${row.field} needs a reason`).toBeGreaterThan(10);
      }
    }
  });

  it('passes only keywords that exist in the TRL config class at the pinned release (and in TrainingArguments)', () => {
    expect(TRL_FIELDS.sources.trl.tag).toBe(TRL_VERSION);
    for (const { method, project } of projects) {
      const known = new Set(TRL_FIELDS[CONFIG_OF[method]].fields);
      expect(known.has('learning_rate') && known.has('output_dir')).toBe(true);
      for (const k of project.plan.config) expect(known.has(k.name), `${CONFIG_OF[method]}(${k.name}=…) for ${method}`).toBe(true);
      for (const k of project.plan.lora ?? []) expect(TRL_FIELDS.LoraConfig.fields, `LoraConfig(${k.name}=…)`).toContain(k.name);
    }
  });

  it('says in the README what the memory task and reflection’s second try became, and what of them TRL cannot hold', () => {
    for (const preset of ['memory', 'memory_no_tool', 'reflect'] as const) {
      const project = buildProject('agent', exportSettings('agent', preset), preset);
      const readme = project.files.find((f) => f.path === 'README.md')!.text;
      const field = preset === 'reflect' ? 'answer_attempts' : 'task';
      const row = project.plan.rows.find((r) => r.field === field)!;
      expect(row.status, preset).not.toBe('copied');
      // tests/unit/export/agent-environment.test.ts checks what the environment does; here, that the table says it.
      expect(readme, preset).toContain(row.note.replace(/\|/g, '\\|'));
      expect(row.note, preset).toMatch(preset === 'reflect' ? /submit_answer/ : /sliding window has no counterpart/);
    }
  });

  it('the field lists are TRL’s: a known field is there, the deprecated warmup_ratio and logging_dir are not', () => {
    expect(TRL_FIELDS.GRPOConfig.fields).toContain('max_tool_calling_iterations');
    expect(TRL_FIELDS.GRPOConfig.fields).not.toContain('max_prompt_length'); // removed in TRL v0.28
    expect(TRL_FIELDS.SFTConfig.fields).toContain('assistant_only_loss');
    expect(TRL_FIELDS.TrainingArguments.fields).not.toContain('warmup_ratio');
    expect(TRL_FIELDS.TrainingArguments.fields).not.toContain('logging_dir');
  });

  it('never copies a toy learning rate: the script’s rate is one for a 0.6B model, and its comment names the lab’s', () => {
    for (const { method, preset, project } of projects) {
      const settings = exportSettings(method, preset);
      const lr = project.plan.config.find((k) => k.name === 'learning_rate')!;
      expect(lr.value as number, `${method}/${preset}`).toBeLessThanOrEqual(2e-4);
      expect(lr.value).not.toBe(settings.learning_rate);
      expect(lr.comment).toContain(`lab: ${shortNumber(settings.learning_rate as number)},`);
      expect(lr.comment).toContain(LR_WARNING);
      const row = project.plan.rows.find((r) => r.field === 'learning_rate')!;
      expect(row.status).toBe('changed');
    }
    // A rate set from outside is not copied either.
    const plan = exportPlan('grpo', exportSettings('grpo', 'default', { learning_rate: 5e-5 }));
    expect(plan.config.find((k) => k.name === 'learning_rate')!.value).toBe(1e-6);
    expect(plan.rows.find((r) => r.field === 'learning_rate')!.note).toContain('5e-5');
  });

  it('keeps the lab’s batch per optimizer step and its optimizer steps per generation on 1, 2 and 8 GPUs, by TRL’s rules', () => {
    // TRL v1.13.0: generation_batch_size = per_device_train_batch_size × num_processes × steps_per_generation
    // (grpo_config.py:1098-1099); each process generates every steps_per_generation × num_iterations micro-steps
    // (grpo_trainer.py:1595-1596) and steps the optimizer every gradient_accumulation_steps micro-steps.
    const cases = [
      ['grpo', 'default'],
      ['grpo', 'dapo'],
      ['grpo', 'dr_grpo'],
      ['agent', 'default'],
    ] as const;
    for (const [method, preset] of cases) {
      const settings = exportSettings(method, preset);
      const project = buildProject(method, settings, preset);
      const script = project.files.find((f) => f.path === (method === 'agent' ? 'train_agent.py' : 'train_grpo.py'))!.text;
      const batch = Number(/^BATCH_PER_STEP = (\d+)$/m.exec(script)![1]);
      const cap = Number(/^PER_DEVICE_BATCH, ACCUMULATION = batch_layout\(BATCH_PER_STEP, (\d+)\)/m.exec(script)![1]);
      const perGeneration = Number(/^\s+steps_per_generation=(\d+) \* ACCUMULATION,$/m.exec(script)![1]);
      expect(script).toMatch(/^\s+per_device_train_batch_size=PER_DEVICE_BATCH,$/m);
      expect(script).toMatch(/^\s+gradient_accumulation_steps=ACCUMULATION,$/m);
      expect(batch, `${method}/${preset}`).toBe(settings.per_device_train_batch_size);
      expect(perGeneration).toBe(settings.steps_per_generation);
      const iterations = settings.num_iterations as number;
      for (const processes of [1, 2, 8]) {
        const layout = batchLayout(batch, cap, processes)!;
        expect(layout.micro).toBeLessThanOrEqual(cap);
        const stepsPerGeneration = perGeneration * layout.accumulation;
        const generationBatch = layout.micro * processes * stepsPerGeneration;
        const generateEveryMicroSteps = stepsPerGeneration * iterations;
        const where = `${method}/${preset} on ${processes} GPU(s)`;
        expect(layout.micro * processes * layout.accumulation, `${where}: completions per optimizer step`).toBe(settings.per_device_train_batch_size);
        expect(generateEveryMicroSteps / layout.accumulation, `${where}: optimizer steps per generation`).toBe((settings.steps_per_generation as number) * iterations);
        expect(generationBatch, where).toBe((settings.per_device_train_batch_size as number) * (settings.steps_per_generation as number));
        expect(generationBatch % (settings.num_generations as number), where).toBe(0);
      }
    }
    // A batch that does not split over the GPUs is refused (the script stops with a message), never silently changed.
    expect(batchLayout(12, 8, 8)).toBeNull();
    expect(batchLayout(64, 8, 8)).toEqual({ micro: 8, accumulation: 1 });
    expect(batchLayout(64, 8, 1)).toEqual({ micro: 8, accumulation: 8 });
  });

  it('passes use_bias_correction_kl=False: the lab’s KL gradient, whatever TRL’s default', () => {
    const kw = Object.fromEntries(exportPlan('grpo', exportSettings('grpo', 'kl')).config.map((k) => [k.name, k.value]));
    expect(kw.beta).toBeGreaterThan(0);
    expect(kw.use_bias_correction_kl).toBe(false);
  });

  it('exports the reward-hacking preset’s flawed verifier as flawed, loudly, with true correctness logged beside it', () => {
    const project = buildProject('grpo', exportSettings('grpo', 'reward_hacking'), 'reward_hacking');
    expect(project.plan.rewards).toEqual([
      { fn: 'at_least_reward', weight: 1 },
      { fn: 'format_reward', weight: 0.2 },
      { fn: 'correctness_reward', weight: 0 },
    ]);
    const script = project.files.find((f) => f.path === 'train_grpo.py')!.text;
    expect(script).toContain('# DELIBERATELY FLAWED VERIFIER');
    expect(script).toContain('reward_funcs=[at_least_reward, format_reward, correctness_reward]');
    expect(project.files.find((f) => f.path === 'README.md')!.text).toContain('> **Warning.** DELIBERATELY FLAWED VERIFIER');
    const digits = exportPlan('grpo', exportSettings('grpo', 'default', { correctness_reward: 'digits' }));
    expect(digits.rewards[0].fn).toBe('digits_reward');
    expect(digits.warnings[0]).toMatch(/DELIBERATELY FLAWED/);
  });

  it('says what TRL cannot do instead of dropping it: dynamic sampling, training on tool results', () => {
    const dapo = exportPlan('grpo', exportSettings('grpo', 'dapo'));
    expect(dapo.rows.find((r) => r.field === 'dynamic_sampling')).toMatchObject({ status: 'none', target: 'no counterpart' });
    expect(dapo.warnings.join(' ')).toMatch(/dynamic sampling/);
    const masked = exportPlan('agent', exportSettings('agent', 'train_on_observations'));
    expect(masked.rows.find((r) => r.field === 'train_on_tool_results')!.note).toMatch(/always masks tool results/);
    expect(masked.warnings.join(' ')).toMatch(/cannot reproduce/);
  });

  it('warns, with the counts, when TRL’s in-training evaluation would generate more than training does', () => {
    // The default GRPO run: 60 steps × 64 completions = 3840; evaluation every 10 steps on 200 prompts × 8 = 9600.
    const costly = exportPlan('grpo', exportSettings('grpo', 'default', { max_steps: 60, eval_steps: 10, eval_samples: 200, num_generations: 8, per_device_train_batch_size: 64 }));
    expect(costly.warnings.join(' ')).toContain('6 evaluations × EVAL_SAMPLES 200 × 8 = 9600 completions, against 3840 for the 60 training steps');
    const cheap = exportPlan('grpo', exportSettings('grpo', 'default', { max_steps: 60, eval_steps: 30, eval_samples: 100, num_generations: 8, per_device_train_batch_size: 64 }));
    expect(cheap.warnings.join(' ')).not.toMatch(/Evaluation during training/); // 2 × 100 × 8 = 1600 < 3840
    const none = exportPlan('agent', exportSettings('agent', 'default', { eval_steps: 0 }));
    expect(none.warnings.join(' ')).not.toMatch(/Evaluation during training/);
  });

  it('maps LoRA runs to peft.LoraConfig with Qwen’s module names, and full fine-tuning to none', () => {
    const lora = exportPlan('sft', exportSettings('sft', 'lora_r16_rslora'));
    expect(lora.lora).toEqual([
      { name: 'r', value: 16 },
      { name: 'lora_alpha', value: 8 },
      { name: 'lora_dropout', value: { code: '0.0' } },
      { name: 'use_rslora', value: true },
      { name: 'target_modules', value: 'all-linear' },
    ]);
    expect(lora.config.find((k) => k.name === 'learning_rate')!.value).toBe(2e-4);
    const attention = exportPlan('sft', exportSettings('sft', 'lora_r4', { target_modules: 'attention' }));
    expect(attention.lora!.find((k) => k.name === 'target_modules')!.value).toEqual(['q_proj', 'k_proj', 'v_proj', 'o_proj']);
    expect(exportPlan('sft', exportSettings('sft', 'full_ft')).lora).toBeNull();
  });

  it('refuses ppo with a reason, and unknown methods, presets and fields with ConfigErrors', () => {
    expect(exportOf('ppo')).toEqual({ refusal: expect.stringMatching(/^ppo cannot be exported: .*grid world/) });
    expect(exportOf('team')).toEqual({ refusal: expect.stringMatching(/^team cannot be exported: .*two policies on one shared reward/) });
    for (const name of ['__proto__', 'toString', 'rloo']) expect(exportOf(name)).toEqual({ refusal: expect.stringMatching(/^unknown lab trainer/) });
    expect(() => exportSettings('grpo', 'nope')).toThrow(ConfigError);
    expect(() => exportSettings('grpo', '__proto__')).toThrow(ConfigError);
    expect(() => exportSettings('grpo', 'default', { nope: 1 })).toThrow(ConfigError);
    expect(() => exportSettings('grpo', 'default', { beta: -1 })).toThrow(/beta/);
    expect(() => exportPlan('grpo', exportSettings('grpo', 'default', { reward_weight_correctness: 0, reward_weight_format: 0 }))).toThrow(/every reward weight is 0/);
    expect(() => exportPlan('grpo', exportSettings('grpo', 'default', { per_device_train_batch_size: 60 }))).toThrow(/multiple of num_generations/);
  });
});

describe('versions', () => {
  it('pins the six named packages exactly, TRL from TRL_VERSION', () => {
    const text = requirementsTxt();
    for (const name of ['trl', 'transformers', 'datasets', 'accelerate', 'peft', 'deepspeed']) expect(text).toMatch(new RegExp(`^${name}==\\d+\\.\\d+\\.\\d+ `, 'm'));
    expect(text).toMatch(new RegExp(`^trl==${TRL_RELEASE.replace(/\./g, '\\.')} `, 'm'));
    expect(`v${TRL_RELEASE}`).toBe(TRL_VERSION);
    // transformers ≥ 5.13 parses tool calls without jmespath (TRL v1.13.0 grpo_trainer.py:610-616): not pinned.
    expect(Number(PINS.find((p) => p.name === 'transformers')!.version.split('.')[1])).toBeGreaterThanOrEqual(13);
    expect(PINS.find((p) => p.name === 'jmespath')).toBeUndefined();
  });

  it('the README says what CI ran (toy scale, CPU, the exact pins) and what it did not (anything on a GPU)', () => {
    const readme = buildProject('grpo', exportSettings('grpo', 'default'), 'default').files.find((f) => f.path === 'README.md')!.text;
    const section = readme.slice(readme.indexOf('## What was run, and what was not'), readme.indexOf('## Files'));
    for (const pin of SMOKE_PINS) expect(section).toContain(`${pin.name} ${pin.version}`);
    expect(section).toContain(SMOKE_TORCH.replace('==', ' '));
    expect(section).toMatch(/toy\s+scale on a CPU/);
    expect(section).toMatch(/hardware table below is\s+a calculation, not a measurement/);
    // The smoke test's environment is what smoke-env.ts installs: the same list.
    expect(fs.readFileSync('scripts/export/smoke-env.ts', 'utf8')).toMatch(/SMOKE_PINS/);
  });

  it('names the TRL release in one place: no lib/export or scripts/export source types it', () => {
    const sources = ['lib/export', 'lib/export/python', 'scripts/export'].flatMap((dir) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => path.join(dir, f)),
    );
    expect(sources.length).toBeGreaterThan(8);
    const release = TRL_RELEASE.replace(/\./g, '\\.');
    for (const file of [...sources, 'scripts/export.ts']) expect(fs.readFileSync(file, 'utf8'), file).not.toMatch(new RegExp(`(^|[^\\d.])v?${release}(?!\\d)`));
  });
});

describe('every method exports', () => {
  it('the four methods and their files', () => {
    const names = Object.fromEntries(EXPORT_METHODS.map((m) => [m, buildProject(m, exportSettings(m, 'default'), 'default').files.map((f) => f.path)]));
    const shared = ['README.md', 'requirements.txt', 'common.py', 'prepare_data.py', 'train_sft.py', 'eval.py', 'accelerate/multi_gpu.yaml', 'accelerate/zero2.yaml', 'accelerate/zero3.yaml', 'lab-run.json'];
    for (const m of EXPORT_METHODS) expect(names[m]).toEqual(expect.arrayContaining(shared));
    expect(names.grpo).toContain('train_grpo.py');
    expect(names.dpo).toEqual(expect.arrayContaining(['make_pairs.py', 'train_dpo.py']));
    expect(names.agent).toContain('train_agent.py');
    expect(names.sft).toHaveLength(shared.length);
  });
});
