/**
 * The agent trainer's plumbing on the CPU backend with a deliberately small model: the two-step task with a flaky
 * calculator trains without leaking tensors, its config refuses a completion its model cannot hold, the registry
 * picks each task's checkpoint, and evaluation draws the same failures every time.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { CALCULATOR_ERROR } from '@/lib/tasks/environment';
import { agentEvalEnvironment, createAgentTrainer, resolveAgentConfig } from '@/lib/train/agent-trainer';
import { agentPresets } from '@/lib/train/agent-config';
import { ConfigError } from '@/lib/train/config';
import { AGENT_MAX_COMPLETION, AGENT_TWO_STEP_MAX_COMPLETION, agentModelConfig, createAgentLabTask } from '@/lib/train/lab-setup';
import { checkpointFor } from '@/lib/train/registry';

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
  });

  it('evaluates with the same random failures every time, at the configured rate', () => {
    const config = resolveAgentConfig(agentPresets.retry.overrides);
    const calls = twoStep.testSet(400).map((p) => `[${p.expression}]`);
    const failed = (env: ReturnType<typeof agentEvalEnvironment>) => calls.map((c) => twoStep.tokenizer.decode(env!.respond(twoStep.tokenizer.encode(c))!.tokens) === CALCULATOR_ERROR);
    const first = failed(agentEvalEnvironment(twoStep, config));
    expect(failed(agentEvalEnvironment(twoStep, config))).toEqual(first);
    const share = first.filter(Boolean).length / first.length;
    expect(Math.abs(share - config.tool_failure_rate)).toBeLessThan(0.07); // 400 draws at p = 0.3: one standard error is ~0.023
    expect(failed(agentEvalEnvironment(twoStep, resolveAgentConfig(agentPresets.multi_step.overrides))).some(Boolean)).toBe(false);
    expect(agentEvalEnvironment(twoStep, resolveAgentConfig(agentPresets.multi_step_no_tool.overrides))).toBeUndefined();
  });
});
