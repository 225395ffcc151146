/**
 * Bundled by scripts/bench-lab-step.mjs for the browser: a fixed tfjs-wasm training step that does not change with the
 * labs (a TinyLM of d_model 32, one layer, two heads, SFT on 1-digit additions, batch 32, Adam), timed in the page
 * that runs the lab. It measures this machine and tfjs, so the lab's ms/step can be read as a multiple of it.
 * Fixed means it does not get faster when the labs do: it runs with the wasm fast paths off (lib/models/fast-paths.ts),
 * i.e. the step as it was when the 4× target was set.
 */
import * as tf from '@tensorflow/tfjs';
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { configForTask } from '@/lib/models/presets';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { createArithmeticTask } from '@/lib/tasks/arithmetic';
import { selectBackend } from '@/lib/tf/backend';
import { createSftTrainer } from '@/lib/train/sft-trainer';

async function anchorStep(steps = 40, warmup = 5): Promise<{ backend: string; msPerStep: number }> {
  const selection = await selectBackend({ requested: 'wasm', order: ['wasm'], timeoutMs: 60_000 });
  if (selection.backend !== 'wasm') throw new Error(`wasm did not start: ${JSON.stringify(selection.fallbacks)}`);
  const task = createArithmeticTask({ digits: 1, scratchpad: true });
  const model = createTinyLM(configForTask(task, { d_model: 32, n_layers: 1, n_heads: 2 }), 0);
  const trainer = createSftTrainer(model, task, { per_device_train_batch_size: 32, eval_samples: 10, seed: 0 });
  const times: number[] = [];
  setWasmFastPaths(false);
  try {
    for (let i = 0; i < warmup + steps; i++) {
      const start = performance.now();
      await trainer.trainStep();
      if (i >= warmup) times.push(performance.now() - start);
    }
  } finally {
    setWasmFastPaths(true);
  }
  trainer.dispose();
  model.dispose();
  times.sort((a, b) => a - b);
  return { backend: tf.getBackend(), msPerStep: times[Math.floor(times.length / 2)] };
}

(globalThis as unknown as { anchorStep: typeof anchorStep }).anchorStep = anchorStep;
