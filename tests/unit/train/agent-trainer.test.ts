/**
 * The agent trainer's plumbing on the CPU backend with a deliberately small model: the two-step task with a flaky
 * calculator trains without leaking tensors, its config refuses a completion its model cannot hold, the registry
 * picks each task's checkpoint, and evaluation draws the same failures every time.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { CALCULATOR_ERROR } from '@/lib/tasks/environment';
import { DEFAULT_AGENT_TASK } from '@/lib/tasks/agent';
import { agentEvalEnvironment, createAgentTrainer, resolveAgentConfig } from '@/lib/train/agent-trainer';
import { agentPresets } from '@/lib/train/agent-config';
import { ConfigError } from '@/lib/train/config';
import { AGENT_MAX_COMPLETION, AGENT_REFLECT_MAX_COMPLETION, AGENT_TWO_STEP_MAX_COMPLETION, agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { checkpointFor } from '@/lib/spec/registry';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const twoStep = createAgentLabTask('two_step');
const small = () => createTinyLM({ ...agentModelConfig(twoStep), d_model: 16, n_layers: 1, n_heads: 2 }, 0);

describe('agent trainer, two-step task', () => {
  it('trains with a flaky calculator without leaking tensors, and logs calls per episode', async () => {
    const model = small();
    const trainer = createAgentTrainer(model, twoStep, { ...agentPresets.retry.overrides, per_device_train_batch_size: 8, num_generations: 4, eval_samples: 10 });
    await trainer.trainStep();
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 2; i++) await trainer.trainStep();
    const metrics = await trainer.evaluate();
    expect(tf.memory().numTensors).toBe(before);
    expect(metrics['eval/calls_per_episode']).toBeGreaterThanOrEqual(0);
    expect(metrics).not.toHaveProperty('eval/accuracy_easy'); // no times-table facts in this task: no rate, not 0
    trainer.dispose();
    model.dispose();
  });

  it('refuses a completion longer than the task’s model holds, and a task the trainer was not given', () => {
    expect(resolveAgentConfig(agentPresets.multi_step.overrides).max_completion_length).toBe(AGENT_TWO_STEP_MAX_COMPLETION);
    expect(() => resolveAgentConfig({ max_completion_length: AGENT_MAX_COMPLETION + 1 })).toThrow(ConfigError);
    expect(() => resolveAgentConfig({ task: 'two_step', max_completion_length: AGENT_TWO_STEP_MAX_COMPLETION + 1 })).toThrow(ConfigError);
    const model = small();
    expect(() => createAgentTrainer(model, twoStep, { task: 'product' })).toThrow(/task/);
    model.dispose();
  });

  it('starts each task from its own checkpoint', () => {
    expect(checkpointFor('agent', {})).toBe('agent_sft');
    expect(checkpointFor('agent', agentPresets.multi_step.overrides)).toBe('agent_multistep_sft');
    expect(checkpointFor('agent', agentPresets.retry.overrides)).toBe('agent_multistep_sft');
    expect(checkpointFor('agent', { ...agentPresets.multi_step.overrides, init_from: 'base' })).toBeNull();
    expect(checkpointFor('agent', agentPresets.memory.overrides)).toBe('agent_memory_sft');
    expect(checkpointFor('agent', agentPresets.memory_no_tool.overrides)).toBe('agent_memory_sft');
    expect(checkpointFor('agent', agentPresets.reflect.overrides)).toBe('agent_reflect_sft');
    expect(checkpointFor('agent', agentPresets.reflect_feedback.overrides)).toBe('agent_reflect_feedback_sft');
  });

  it('evaluates with the same random failures every time, at the configured rate', () => {
    const config = resolveAgentConfig(agentPresets.retry.overrides);
    const calls = twoStep.testSet(400).map((p) => `[${p.expression}]`);
    const failed = (env: ReturnType<typeof agentEvalEnvironment>) => calls.map((c) => twoStep.tokenizer.decode(env!.respond(twoStep.tokenizer.encode(c))!.tokens) === CALCULATOR_ERROR);
    const first = failed(agentEvalEnvironment(twoStep, config, []));
    expect(failed(agentEvalEnvironment(twoStep, config, []))).toEqual(first);
    const share = first.filter(Boolean).length / first.length;
    expect(Math.abs(share - config.tool_failure_rate)).toBeLessThan(0.07); // 400 draws at p = 0.3: one standard error is ~0.023
    expect(failed(agentEvalEnvironment(twoStep, resolveAgentConfig(agentPresets.multi_step.overrides), [])).some(Boolean)).toBe(false);
    expect(agentEvalEnvironment(twoStep, resolveAgentConfig(agentPresets.multi_step_no_tool.overrides), [])).toBeUndefined();
  });
});

describe('agent trainer, memory and reflection', () => {
  it('memory: trains without leaking tensors, masks the memory’s replies out of the loss, and logs memory use', async () => {
    const memory = createAgentLabTask('memory');
    const model = createTinyLM({ ...agentModelConfig(memory), d_model: 16, n_layers: 1, n_heads: 2 }, 0);
    const trainer = createAgentTrainer(model, memory, { ...agentPresets.memory.overrides, per_device_train_batch_size: 8, num_generations: 4, eval_samples: 10 });
    const first = await trainer.trainStep();
    expect(first).toHaveProperty('memory/use_rate');
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 2; i++) await trainer.trainStep();
    const metrics = await trainer.evaluate();
    expect(tf.memory().numTensors).toBe(before);
    expect(metrics['eval/memory_use_rate']).toBeGreaterThanOrEqual(0);
    expect(metrics['eval/memory_use_rate']).toBeLessThanOrEqual(1);
    expect(metrics).not.toHaveProperty('eval/fabricated_result_rate'); // a calculator's symptom, not memory's
    const samples = (await trainer.inspect())!;
    // Every episode got the distractors and the question from the environment, as observation tokens.
    for (const e of samples.episodes) {
      const observed = e.tokens.filter((_, t) => e.roles[t] === 'observation').join('');
      if (e.tokens.includes(';')) expect(observed.startsWith(' c=')).toBe(true);
    }
    trainer.dispose();
    model.dispose();
  });

  it('reflect: a wrong answer gets a second try, scored on the last one, without leaking tensors', async () => {
    const product = createAgentLabTask('product');
    const model = createTinyLM({ ...agentModelConfig(product, 2), d_model: 16, n_layers: 1, n_heads: 2 }, 0);
    const trainer = createAgentTrainer(model, product, { ...agentPresets.reflect.overrides, per_device_train_batch_size: 8, num_generations: 4, eval_samples: 10 });
    expect(await trainer.trainStep()).toHaveProperty('reflection/fix_rate');
    await trainer.evaluate();
    const before = tf.memory().numTensors;
    await trainer.trainStep();
    const metrics = await trainer.evaluate();
    expect(tf.memory().numTensors).toBe(before);
    for (const m of ['eval/first_try_accuracy', 'eval/fix_rate', 'eval/accuracy']) expect(metrics).toHaveProperty(m);
    expect(metrics['eval/fix_rate']).toBeLessThanOrEqual(metrics['eval/accuracy']);
    expect(metrics['eval/accuracy']).toBeCloseTo(metrics['eval/first_try_accuracy'] + metrics['eval/fix_rate'], 10);
    const samples = (await trainer.inspect())!;
    // An untrained model's answers are wrong: every episode that ended its first turn got "?" and went on.
    const retried = samples.episodes.filter((e) => e.attempts === 2);
    for (const e of retried) expect(e.tokens[e.tokens.indexOf('<eos>') + 1]).toBe('?');
    expect(samples.episodes.every((e) => e.attempts <= 2)).toBe(true);
    trainer.dispose();
    model.dispose();
  });

  it('reflect_feedback: tensors stay flat across steps, and evaluation logs the misses fixed on known facts', async () => {
    const product = createAgentLabTask('product');
    const model = createTinyLM({ ...agentModelConfig(product, 2), d_model: 16, n_layers: 1, n_heads: 2 }, 0);
    const trainer = createAgentTrainer(model, product, { ...agentPresets.reflect_feedback.overrides, per_device_train_batch_size: 8, num_generations: 4, eval_samples: 12 });
    await trainer.trainStep();
    await trainer.evaluate();
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      await trainer.trainStep();
      counts.push(tf.memory().numTensors);
    }
    const metrics = await trainer.evaluate();
    expect(new Set([...counts, tf.memory().numTensors]).size).toBe(1);
    // A miss fixed on a known fact is a fix: the rate can be no larger than the fix rate over the easy share.
    expect(metrics['eval/deliberate_miss_rate']).toBeGreaterThanOrEqual(0);
    expect(metrics['eval/deliberate_miss_rate']).toBeLessThanOrEqual(1);
    expect(metrics['eval/deliberate_miss_rate'] * DEFAULT_AGENT_TASK.easy_fraction).toBeLessThanOrEqual(metrics['eval/fix_rate'] + 1e-9);
    const samples = (await trainer.inspect())!;
    // No first try got a calculator's answer: every observation before the first "<eos>" is absent.
    for (const e of samples.episodes) {
      const end = e.tokens.indexOf('<eos>');
      expect(e.roles.slice(0, end < 0 ? e.tokens.length : end).every((r) => r === 'policy')).toBe(true);
    }
    trainer.dispose();
    model.dispose();
  });

  it('refuses tool_after_verdict without a second try or a calculator', () => {
    expect(() => resolveAgentConfig({ tool_after_verdict: true })).toThrow(/tool_after_verdict/);
    expect(() => resolveAgentConfig({ ...agentPresets.reflect_feedback.overrides, use_tools: false })).toThrow(ConfigError);
    expect(resolveAgentConfig(agentPresets.reflect_feedback.overrides).tool_after_verdict).toBe(true);
  });

  it('refuses a second try longer than the product model holds', () => {
    expect(() => resolveAgentConfig({ answer_attempts: 2, max_completion_length: AGENT_REFLECT_MAX_COMPLETION + 1 })).toThrow(ConfigError);
    expect(resolveAgentConfig(agentPresets.reflect.overrides).max_completion_length).toBe(AGENT_REFLECT_MAX_COMPLETION);
    expect(() => resolveAgentConfig({ answer_attempts: 3 })).toThrow(ConfigError);
  });
});
