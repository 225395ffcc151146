/**
 * npm run train -- <trainer> [--preset NAME] [--set key=value ...] [--seed N] [--steps N]
 *                  [--backend cpu|wasm] [--init FILE] [--save FILE]
 *
 * Runs a trainer of lib/train/registry.ts in Node and prints one JSON object per line: each step's metrics with
 * `step`, `kind` ('train' | 'eval') and `tensors` (tf.memory().numTensors). Evaluation lines carry `eval/accuracy`
 * (or `eval/return` for PPO), including one before the first step. Without --init a trainer starts from its shipped
 * checkpoint (public/models/), or from a fresh model if it builds its own.
 *
 * Every flag, name, value and path is checked before tfjs loads or training starts: a mistake costs one line on
 * stderr and exit code 2, never a stack trace or a lost run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, ownEntry, parseAssignment, resolve } from '@/lib/train/config';
import { TRAINER_NAMES, TRAINERS, trainerNamed, trainerSettings } from '@/lib/train/registry';

const USAGE = `usage: npm run train -- <${TRAINER_NAMES.join('|')}> [--preset NAME] [--set key=value ...] [--seed N] [--steps N] [--backend cpu|wasm] [--init FILE] [--save FILE]`;

class UsageError extends Error {}

function fail(message: string, code = 2): never {
  console.error(`train: ${message.split('\n')[0]}`);
  process.exit(code);
}

/** Everything the run needs, checked: a UsageError names the first problem. */
function parseCommandLine(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        preset: { type: 'string' },
        set: { type: 'string', multiple: true, default: [] },
        seed: { type: 'string' },
        steps: { type: 'string' },
        backend: { type: 'string', default: 'cpu' },
        init: { type: 'string' },
        save: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\s*\n\s*/g, ' ')} ${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `name a trainer: ${TRAINER_NAMES.join(' | ')}` : `one trainer at a time, got ${positionals.join(' ')}`);
  const name = trainerNamed(positionals[0]);
  if (name === null) throw new UsageError(`unknown trainer "${positionals[0]}": name a trainer: ${TRAINER_NAMES.join(' | ')}`);
  const { schema, presets } = trainerSettings(name);
  const presetName = values.preset ?? 'default';
  const preset = ownEntry(presets, presetName);
  if (!preset) throw new UsageError(`unknown preset "${presetName}" for ${name} (known: ${Object.keys(presets).join(', ')})`);
  if (values.backend !== 'cpu' && values.backend !== 'wasm') throw new UsageError(`--backend must be cpu or wasm in Node, got "${values.backend}"`);

  const overrides: Record<string, unknown> = { ...preset.overrides };
  for (const assignment of values.set ?? []) {
    const [key, value] = parseAssignment(schema, assignment);
    overrides[key] = value;
  }
  const integer = (flag: string, text: string | undefined, min: number) => {
    if (text === undefined) return undefined;
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${flag} must be an integer ≥ ${min}, got "${text}"`);
    return n;
  };
  const seed = integer('seed', values.seed, 0);
  if (seed !== undefined) overrides.seed = seed;
  const steps = integer('steps', values.steps, 1);
  if (steps !== undefined) overrides.max_steps = steps;
  resolve(schema, overrides); // every value in range, before anything loads

  let init: Uint8Array | undefined;
  if (values.init !== undefined) {
    try {
      init = new Uint8Array(fs.readFileSync(values.init));
    } catch (error) {
      throw new UsageError(`cannot read ${values.init}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  const save = values.save === undefined ? undefined : checkSavePath(values.save);
  return { name, overrides, backend: values.backend, init, save };
}

/** Fails now, not after training, if the checkpoint could not be written there. */
function checkSavePath(file: string): string {
  const target = path.resolve(file);
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) throw new UsageError(`--save ${file} is a directory; give a file name`);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.accessSync(path.dirname(target), fs.constants.W_OK);
  } catch (error) {
    throw new UsageError(`--save ${file}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return target;
}

async function main() {
  let options;
  try {
    options = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (options === null) {
    console.log(`${USAGE}\n\n${TRAINER_NAMES.map((n) => `  ${n.padEnd(6)} ${TRAINERS[n].summary}; presets: ${Object.keys(TRAINERS[n].presets).join(', ')}`).join('\n')}`);
    return;
  }

  // tfjs loads from here on.
  const [tf, { startTrainer }, { TrainingRun }] = await Promise.all([import('@tensorflow/tfjs'), import('@/lib/train/start'), import('@/lib/train/run')]);
  const backend = options.backend as 'cpu' | 'wasm';
  let started;
  try {
    started = await startTrainer(options.name, {
      overrides: options.overrides,
      init: options.init,
      readCheckpoint: async (file) => new Uint8Array(fs.readFileSync(path.join('public', file))),
      backend: { requested: backend, order: [backend] },
    });
  } catch (error) {
    fail(`could not start: ${(error as Error).message}`);
  }
  const { trainer } = started;
  const run = new TrainingRun(trainer, {
    maxSteps: trainer.config.max_steps,
    evalEvery: trainer.config.eval_steps,
    onLog: (line) => console.log(JSON.stringify({ step: line.step, kind: line.kind, ...line.metrics, tensors: tf.memory().numTensors })),
  });
  const state = await run.run();
  if (options.save) {
    const bytes = await trainer.save();
    fs.writeFileSync(options.save, bytes);
    console.error(`train: saved ${options.save} (${bytes.length} bytes)`);
  }
  trainer.dispose();
  if (state !== 'done') fail(run.error ?? `run ended as ${state}`, 1);
}

main().catch((error: unknown) => fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, 1));
