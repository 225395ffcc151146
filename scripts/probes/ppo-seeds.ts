// Probe: PPO presets on seeds, through the fused kernel and through tfjs (fast paths off), with what each claim reads.
// npx tsx scripts/probes/ppo-seeds.ts <preset> <steps> <seeds, e.g. 0,1,2>
import { setWasmFastPaths } from '@/lib/models/fast-paths';
import { selectBackend } from '@/lib/tf/backend';
import { ppoPresets } from '@/lib/train/ppo-config';
import { createPpoTrainer } from '@/lib/train/ppo-trainer';

const [preset = 'lr_too_high', stepsArg = '10', seedsArg = '0,1,2'] = process.argv.slice(2);
await selectBackend({ requested: 'wasm', order: ['wasm'] });
for (const fused of [true, false]) {
  setWasmFastPaths(fused);
  for (const seed of seedsArg.split(',').map(Number)) {
    const trainer = createPpoTrainer({ ...ppoPresets[preset as keyof typeof ppoPresets].overrides, seed });
    const entropy: number[] = [];
    const returns: number[] = [];
    const kl: number[] = [];
    for (let step = 1; step <= Number(stepsArg); step++) {
      const m = await trainer.trainStep();
      entropy.push(m['policy/entropy_avg']);
      kl.push(m['policy/approxkl_avg']);
      if (step % 2 === 0) returns.push((await trainer.evaluate())['eval/return']);
    }
    const solved = returns.findIndex((r) => r >= 0.9);
    console.log(`${fused ? 'fused' : 'tfjs '} seed ${seed}: entropy ${entropy[0].toFixed(2)} → ${entropy.at(-1)!.toFixed(3)}, max KL ${Math.max(...kl).toPrecision(3)}, best return ${Math.max(...returns).toFixed(2)}, first ≥ 0.9 at ${solved < 0 ? '–' : 2 * (solved + 1)}`);
    trainer.dispose();
  }
}
