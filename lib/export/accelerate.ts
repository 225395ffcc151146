/**
 * accelerate/*.yaml: `accelerate launch --config_file <file> train_*.py`. Keys are Accelerate's config-file keys (its
 * ClusterConfig dataclass, and `accelerate launch` flags inside deepspeed_config), checked against the lists extracted
 * from Accelerate's source at the pinned tag (trl-fields.json). num_processes is 8; override with --num_processes N.
 */

export interface AccelerateConfig {
  path: string;
  /** One line for the README. */
  summary: string;
  text: string;
}

const common = (distributed: string) => `compute_environment: LOCAL_MACHINE
distributed_type: ${distributed}
mixed_precision: bf16
num_machines: 1
num_processes: 8
machine_rank: 0
main_training_function: main
rdzv_backend: static
same_network: true
use_cpu: false
debug: false
`;

export const ACCELERATE_CONFIGS: readonly AccelerateConfig[] = [
  {
    path: 'accelerate/multi_gpu.yaml',
    summary: 'plain data parallelism (DDP, ZeRO stage 0): every GPU holds the whole model, gradients and Adam state',
    text: `# Data parallelism (DDP): one full copy of the model per GPU. Enough for a 0.6B model (see README.md, "Hardware").
${common('MULTI_GPU')}gpu_ids: all
`,
  },
  {
    path: 'accelerate/zero2.yaml',
    summary: 'DeepSpeed ZeRO-2: Adam state and gradients sharded over the GPUs, weights replicated',
    text: `# DeepSpeed ZeRO stage 2: optimizer state and gradients are split across the GPUs; each still holds all weights.
${common('DEEPSPEED')}deepspeed_config:
  zero_stage: 2
  offload_optimizer_device: none
  offload_param_device: none
  zero3_init_flag: false
  deepspeed_multinode_launcher: standard
`,
  },
  {
    path: 'accelerate/zero3.yaml',
    summary: 'DeepSpeed ZeRO-3: weights too are sharded, gathered layer by layer; for models that do not fit otherwise',
    text: `# DeepSpeed ZeRO stage 3: weights, gradients and optimizer state are all split across the GPUs.
${common('DEEPSPEED')}deepspeed_config:
  zero_stage: 3
  offload_optimizer_device: none
  offload_param_device: none
  zero3_init_flag: true
  zero3_save_16bit_model: true
  deepspeed_multinode_launcher: standard
`,
  },
];
