/**
 * npm run build:checkpoints — rebuilds the checkpoints the labs ship, reproducibly (wasm backend, fixed seeds):
 *   public/models/base.arlw        the arithmetic lab model freshly initialised (seed 0)
 *   public/models/sft.arlw         base after a deliberately short SFT run, so it is right on some held-out problems
 *                                  and wrong on many: RL has room to improve it.
 *   public/models/addition-sft.arlw  the same SFT run continued to 600 steps: addition learned well, the old task
 *                                  the LoRA lab watches while it fine-tunes on subtraction.
 *   public/models/agent-sft.arlw   the agent model (seed 0) after SFT on calculator demonstrations, 40% of them with a
 *                                  call: it calls the tool sometimes, not reliably, so GRPO can learn when to call.
 *   public/models/agent-multistep-sft.arlw  the two-step agent model (seed 0) after SFT on demonstrations, half of
 *                                  them with the two-call plan, some of those with a failed call made again or given
 *                                  up on: it plans sometimes and rarely recovers, so GRPO can teach both.
 *   public/models/agent-memory-sft.arlw  the memory task's model (sliding window 12, seed 0) after SFT on
 *                                  demonstrations, half of them writing both facts to memory and reading the asked one.
 *   public/models/agent-reflect-sft.arlw  the product task's model with room for a second try (seed 0) after SFT on
 *                                  agent_sft's demonstrations, a fifth of the direct answers wrong first, told "?", fixed.
 *   public/models/agent-reflect-feedback-sft.arlw  the same recipe with 30% of the direct answers wrong first and 30%
 *                                  of their second tries calling: the reflect_feedback preset's start.
 *   public/models/team-receiver-sft.arlw  the team lab's receiver after SFT on one convention for reading the channel
 *                                  (scripts/build-team-checkpoint.ts).
 *   public/models/self-improve-sft.arlw  the self-improvement lab's round 0: its model after 1,000 steps of SFT on the
 *                                  demonstrations (scripts/build-self-improve-checkpoint.ts).
 *   public/models/vision-sft.arlw  the vision lab's model after its 800-step SFT phase on described pictures, where
 *                                  the default preset's GRPO starts (scripts/build-vision-checkpoint.ts, run last).
 * Prints each SFT run as JSON lines and its final held-out metrics. `-- --only agent_memory_sft,agent_reflect_sft`
 * rebuilds only those (each run is independent: same bytes either way).
 */
import fs from 'node:fs';
import path from 'node:path';
import { saveTinyLM } from '@/lib/models/checkpoint';
import { createTinyLM, type TinyLM } from '@/lib/models/tiny-lm';
import { selectBackend } from '@/lib/tf/backend';
import { agentSftSource } from '@/lib/train/agent-trainer';
import { resolve } from '@/lib/train/config';
import { AGENT_MEMORY_SFT, AGENT_MULTISTEP_SFT, AGENT_REFLECT_FEEDBACK_SFT, AGENT_REFLECT_SFT, agentModelConfig, CHECKPOINTS, createAgentLabTask, createLabTask, labModelConfig } from '@/lib/train/lab-setup';
import { TrainingRun, type StepTrainer } from '@/lib/train/run';
import { sftSchema } from '@/lib/train/sft-config';
import { createSftTrainer, sftTrainerOn } from '@/lib/train/sft-trainer';

/** Steps of SFT for the shipped arithmetic checkpoint: chosen so held-out accuracy lands well short of its ceiling. */
const SFT_CHECKPOINT_STEPS = 170;
/** Where the same run stops for the LoRA lab's addition model. */
const ADDITION_SFT_STEPS = 600;
/** The agent's SFT: demonstrations call the calculator with this probability, for this many steps. */
const AGENT_SFT = { toolRate: 0.4, steps: 700 } as const;

// wasm: ~20x faster than cpu here, and as deterministic on one backend.
if ((await selectBackend({ requested: 'wasm', order: ['wasm'] })).backend !== 'wasm') throw new Error('the wasm backend did not start');

async function write(model: TinyLM, file: string) {
  const target = path.join('public', file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const bytes = await saveTinyLM(model);
  fs.writeFileSync(target, bytes);
  console.error(`wrote ${target} (${bytes.length} bytes, ${model.paramCount()} parameters)`);
}

async function run(name: string, trainer: StepTrainer, steps: number, evalEvery: number) {
  const training = new TrainingRun(trainer, {
    maxSteps: steps,
    evalEvery,
    onLog: (line) => console.log(JSON.stringify({ run: name, step: line.step, kind: line.kind, ...line.metrics })),
  });
  if ((await training.run()) !== 'done') throw new Error(training.error ?? `${name} did not finish`);
  const final = training.history.filter((l) => l.kind === 'eval').at(-1);
  console.error(`${name}: after ${steps} steps ${JSON.stringify(final?.metrics)}`);
}

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',')) : null;
for (const name of only ?? []) if (!(name in CHECKPOINTS)) throw new Error(`--only: no checkpoint '${name}' (${Object.keys(CHECKPOINTS).join(', ')})`);
const wanted = (...names: string[]) => only === null || names.some((n) => only.has(n));

if (wanted('base', 'sft', 'addition_sft')) {
const task = createLabTask();
const model = createTinyLM(labModelConfig(task), 0);
await write(model, CHECKPOINTS.base);
const sft = createSftTrainer(model, task, { max_steps: SFT_CHECKPOINT_STEPS, seed: 0 });
await run('sft', sft, SFT_CHECKPOINT_STEPS, 25);
await write(model, CHECKPOINTS.sft);
await run('addition-sft', sft, ADDITION_SFT_STEPS - SFT_CHECKPOINT_STEPS, 100); // the same trainer: its data stream goes on
await write(model, CHECKPOINTS.addition_sft);
sft.dispose();
model.dispose();
}

if (wanted('agent_sft')) {
const agentTask = createAgentLabTask();
const agent = createTinyLM(agentModelConfig(agentTask), 0);
const agentSft = sftTrainerOn(agent, agentSftSource(agentTask, { toolRate: AGENT_SFT.toolRate, evalSamples: 200 }), resolve(sftSchema, { max_steps: AGENT_SFT.steps, seed: 0 }));
await run('agent-sft', agentSft, AGENT_SFT.steps, 100);
await write(agent, CHECKPOINTS.agent_sft);
agentSft.dispose();
agent.dispose();
}

if (wanted('agent_multistep_sft')) {
const twoStep = createAgentLabTask('two_step');
const planner = createTinyLM(agentModelConfig(twoStep), 0);
const { steps: plannerSteps, ...mix } = AGENT_MULTISTEP_SFT;
const plannerSft = sftTrainerOn(planner, agentSftSource(twoStep, { ...mix, evalSamples: 200, maxCalls: 3 }), resolve(sftSchema, { max_steps: plannerSteps, seed: 0 }));
await run('agent-multistep-sft', plannerSft, plannerSteps, 100);
await write(planner, CHECKPOINTS.agent_multistep_sft);
plannerSft.dispose();
planner.dispose();
}

if (wanted('agent_memory_sft')) {
  const memoryTask = createAgentLabTask('memory');
  const memory = createTinyLM(agentModelConfig(memoryTask), 0);
  const { steps, ...mix } = AGENT_MEMORY_SFT;
  const memorySft = sftTrainerOn(memory, agentSftSource(memoryTask, { ...mix, evalSamples: 200, maxCalls: 3 }), resolve(sftSchema, { max_steps: steps, seed: 0 }));
  await run('agent-memory-sft', memorySft, steps, 50);
  await write(memory, CHECKPOINTS.agent_memory_sft);
  memorySft.dispose();
  memory.dispose();
}

if (wanted('agent_reflect_sft')) {
  const productTask = createAgentLabTask();
  const reflecting = createTinyLM(agentModelConfig(productTask, 2), 0);
  const { steps, retryRate, toolRate } = AGENT_REFLECT_SFT;
  const source = agentSftSource(productTask, { toolRate, wrongFirstRate: retryRate, attempts: 2, evalSamples: 200 });
  const reflectSft = sftTrainerOn(reflecting, source, resolve(sftSchema, { max_steps: steps, seed: 0 }));
  await run('agent-reflect-sft', reflectSft, steps, 100);
  await write(reflecting, CHECKPOINTS.agent_reflect_sft);
  reflectSft.dispose();
  reflecting.dispose();
}

if (wanted('agent_reflect_feedback_sft')) {
  const productTask = createAgentLabTask();
  const reflecting = createTinyLM(agentModelConfig(productTask, 2), 0);
  const { steps, retryRate, toolRate, secondToolRate } = AGENT_REFLECT_FEEDBACK_SFT;
  const source = agentSftSource(productTask, { toolRate, wrongFirstRate: retryRate, secondToolRate, attempts: 2, evalSamples: 200 });
  const feedbackSft = sftTrainerOn(reflecting, source, resolve(sftSchema, { max_steps: steps, seed: 0 }));
  await run('agent-reflect-feedback-sft', feedbackSft, steps, 100);
  await write(reflecting, CHECKPOINTS.agent_reflect_feedback_sft);
  feedbackSft.dispose();
  reflecting.dispose();
}

if (wanted('team_receiver_sft')) await import('./build-team-checkpoint');
if (wanted('self_improve_sft')) await import('./build-self-improve-checkpoint');
if (wanted('vision_sft')) await import('./build-vision-checkpoint');
