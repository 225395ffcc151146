/**
 * Chapter 7's "Take it to a real GPU" states what the TRL export does and what the hardware needs; each number is
 * recomputed here from lib/export (the mapping and chapter 3's calculator), so prose and export cannot drift apart.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hardwareTable } from '@/lib/export/hardware';
import { batchLayout, LR_WARNING, MICRO_BATCH_CAP, REAL_MAX_COMPLETION } from '@/lib/export/mapping';
import { buildProject, exportSettings } from '../unit/export/helpers';
import { CHAPTER_LINK, hardwareSteps, PROMPT_BUDGET } from '@/lib/export/readme';
import { MODEL } from '@/lib/export/versions';
import { grpoSchema } from '@/lib/train/grpo-config';
import { EXPORT_CHAPTER_LINK } from '@/labs/shell/ExportForTrl';

const chapter = fs.readFileSync('content/chapters/07-pipeline.mdx', 'utf8');
const section = chapter.slice(chapter.indexOf('## Take it to a real GPU'), chapter.indexOf('<KeyTakeaways>'));

describe('chapter 7, "Take it to a real GPU"', () => {
  it('is where the labs and the exported README link, before the key takeaways', () => {
    expect(section.length).toBeGreaterThan(1000);
    expect(CHAPTER_LINK).toBe('/chapters/pipeline/#take-it-to-a-real-gpu');
    expect(EXPORT_CHAPTER_LINK).toBe(CHAPTER_LINK);
  });

  it('states the export’s own values', () => {
    const plan = buildProject('grpo', exportSettings('grpo', 'default'), 'default').plan;
    const kw = Object.fromEntries(plan.config.map((k) => [k.name, k.value]));
    expect(section).toContain(`\`${MODEL}\``);
    expect(section).toContain(`lab's \`learning_rate\` of 3e-4 becomes TRL's 1e-6`);
    expect(grpoSchema.learning_rate.default).toBe(3e-4);
    expect(kw.learning_rate).toBe(1e-6);
    expect(LR_WARNING).toContain('TRL’s GRPO default is 1e-6');
    expect(section).toContain(`from the lab's ${grpoSchema.max_completion_length.default} tokens to ${REAL_MAX_COMPLETION.grpo}`);
    const [one, two] = [1, 2].map((gpus) => batchLayout(grpoSchema.per_device_train_batch_size.default, MICRO_BATCH_CAP.grpo, gpus)!);
    expect(section).toContain(
      `the lab's ${grpoSchema.per_device_train_batch_size.default} completions become ${one.micro} per GPU times ${one.accumulation} accumulation steps on one GPU, and ${two.micro} per GPU times ${two.accumulation} on two`,
    );
    expect(kw.gradient_accumulation_steps).toEqual({ code: 'ACCUMULATION' }); // computed by the script from the number of processes
  });

  it('states the calculator’s memory for the GRPO step', () => {
    const step = hardwareSteps(buildProject('grpo', exportSettings('grpo', 'default'), 'default').plan)[1];
    expect(step.seqLen).toBe(PROMPT_BUDGET + REAL_MAX_COMPLETION.grpo);
    const table = hardwareTable(step);
    const ddp = table.cells.find((c) => c.stage === 0 && c.gpus === 1)!;
    const zero3 = table.cells.find((c) => c.stage === 3 && c.gpus === 8)!;
    expect(section).toContain(`(${step.seqLen} tokens a sequence, ${step.microBatch} sequences per GPU, activation checkpointing on)`);
    expect(section).toContain(`about ${ddp.gb.toFixed(1)} GB per GPU with plain data parallelism, so one 24 GB GPU is enough`);
    expect(ddp.fits[24]).toBe(true);
    expect(section).toContain(`on 8 GPUs ZeRO-3 brings the model states and activations down to about ${zero3.gb.toFixed(1)} GB each`);
  });
});
