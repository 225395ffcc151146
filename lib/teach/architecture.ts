/**
 * Whether a checkpoint's weights fit the model a trainer builds under a config: checked on the decoded file's
 * header and tensor table, before anything is allocated or tfjs is loaded.
 */
import { ARCH_FIELDS, resolveConfig } from '@/lib/models/config';
import { checkActorCriticHeader, checkTinyLMHeader } from '@/lib/models/shapes';
import type { WeightsFile } from '@/lib/models/weights-file';
import { createCartPole } from '@/lib/tasks/cartpole';
import { createGridWorld, GRID_MAPS, type GridMapName } from '@/lib/tasks/gridworld';
import type { FieldValue } from '@/lib/train/config';
import { agentModelConfig, createAgentLabTask, createLabTask, labModelConfig } from '@/lib/train/lab-setup';
import type { TrainerName } from '@/lib/spec/registry';
import { selfImproveModelConfig } from '@/lib/train/self-improve-model';

/** Why `file` cannot be the trained model of `trainer` under `config`, or null when it can. */
export function architectureProblem(trainer: TrainerName, config: Record<string, FieldValue>, file: WeightsFile): string | null {
  const table = file.tensors.map((t) => ({ name: t.name, shape: t.shape }));
  try {
    if (trainer === 'ppo') {
      if (file.kind !== 'actor-critic') return `the weights are a '${file.kind}' model; ppo trains an 'actor-critic'`;
      const header = checkActorCriticHeader(file.config, table);
      const env = config.env_id === 'cartpole' ? createCartPole() : createGridWorld({ map: GRID_MAPS[config.grid_map as GridMapName] });
      const expected = { obs_dim: env.obsDim, n_actions: env.nActions, hidden: `${config.hidden_size},${config.hidden_size}` };
      const found = { obs_dim: header.obs_dim, n_actions: header.n_actions, hidden: (header.hidden_sizes ?? [64, 64]).join(',') };
      for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
        if (found[key] !== expected[key]) return `${key} is ${found[key]} in the weights but ${expected[key]} for this config`;
      }
      return null;
    }
    if (file.kind !== 'tiny-lm') return `the weights are a '${file.kind}' model; ${trainer} trains a 'tiny-lm'`;
    const header = resolveConfig(checkTinyLMHeader(file.config, table));
    const agentTask = trainer === 'agent' ? createAgentLabTask(config.task === 'two_step' ? 'two_step' : 'product') : null;
    const expected = resolveConfig(
      trainer === 'self_improve' ? selfImproveModelConfig(Number(config.target_digits)) : agentTask ? agentModelConfig(agentTask) : labModelConfig(createLabTask()),
    );
    for (const key of [...ARCH_FIELDS, 'value_head'] as const) {
      if (header[key] !== expected[key]) return `${key} is ${header[key]} in the weights but ${expected[key]} in the lab's model`;
    }
    const adapters = trainer === 'sft' && config.use_peft === true;
    if (adapters && header.lora?.r !== config.r) return `the config trains LoRA rank ${config.r}, the weights hold ${header.lora ? `rank ${header.lora.r}` : 'no adapters'}`;
    if (!adapters && header.lora) return 'the weights hold LoRA adapters, which this config does not train';
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
