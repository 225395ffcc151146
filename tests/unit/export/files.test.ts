/**
 * What lands on disk: the Accelerate configs parse and use Accelerate's keys, the lab's zip holds exactly the CLI's
 * files, the README's hardware table is the calculator's, and the writer never leaves DIR nor fills a non-empty one.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ACCELERATE_CONFIGS } from '@/lib/export/accelerate';
import { hardwareMarkdown, hardwareTable, stepMemory } from '@/lib/export/hardware';
import { buildProject, exportSettings } from './helpers';
import { hardwareSteps } from '@/lib/export/readme';
import { zipProject } from '@/lib/export/zip';
import { insidePath, writeProject } from '@/scripts/export/write';
import { UsageError } from '@/scripts/cli';
import { TRL_FIELDS } from './helpers';
import { readTree } from '@/tests/read-tree';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-export-files-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/export.ts', ...args], { encoding: 'utf8' });

describe('accelerate/*.yaml', () => {
  it('parse, and use only keys Accelerate reads (its ClusterConfig and launch flags at the pinned tag)', () => {
    expect(ACCELERATE_CONFIGS.map((c) => c.path)).toEqual(['accelerate/multi_gpu.yaml', 'accelerate/zero2.yaml', 'accelerate/zero3.yaml']);
    const stages: number[] = [];
    for (const config of ACCELERATE_CONFIGS) {
      const doc = parse(config.text) as Record<string, unknown>;
      for (const key of Object.keys(doc)) expect(TRL_FIELDS.accelerate.config_file_keys, `${config.path}: ${key}`).toContain(key);
      const ds = doc.deepspeed_config as Record<string, unknown> | undefined;
      for (const key of Object.keys(ds ?? {})) expect(TRL_FIELDS.accelerate.launch_flags, `${config.path}: deepspeed_config.${key}`).toContain(key);
      expect(doc.distributed_type).toBe(ds ? 'DEEPSPEED' : 'MULTI_GPU');
      expect(doc.mixed_precision).toBe('bf16');
      stages.push((ds?.zero_stage as number) ?? 0);
    }
    expect(stages).toEqual([0, 2, 3]);
  });
});

describe('the lab’s zip and the command line', () => {
  it('hold the same files for the same settings', () => {
    const out = path.join(tmp, 'cli-grpo');
    const run = cli('grpo', '--preset', 'dapo', '--set', 'beta=0.04', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const project = buildProject('grpo', exportSettings('grpo', 'dapo', { beta: 0.04 }), 'dapo');
    const zipped = Object.fromEntries(Object.entries(unzipSync(zipProject(project))).map(([name, bytes]) => [name, strFromU8(bytes)]));
    expect(Object.keys(zipped).every((name) => name.startsWith(`${project.name}/`))).toBe(true);
    const fromZip = Object.fromEntries(Object.entries(zipped).map(([name, text]) => [name.slice(project.name.length + 1), text]));
    expect(fromZip).toEqual(readTree(out));
    expect(fromZip['train_grpo.py']).toContain('beta=0.04');
    expect(zipProject(project)).toEqual(zipProject(project)); // reproducible bytes
  });

  it('refuses bad input with one line on stderr and exit code 2, writing nothing', () => {
    const out = path.join(tmp, 'never');
    const cases: [string[], RegExp][] = [
      [['ppo', '--out', out], /^export: ppo cannot be exported: .*grid world/],
      [['nope', '--out', out], /^export: unknown lab trainer "nope"/],
      [['grpo', '--preset', 'nope', '--out', out], /unknown preset "nope" for grpo/],
      [['grpo', '--set', 'nope=1', '--out', out], /unknown field "nope"/],
      [['grpo'], /--out DIR is required/],
      [['sft', '--reward', 'package.json', '--out', out], /--reward is for grpo and agent: sft takes no reward function/],
      [['grpo', '--reward-weight', '2', '--out', out], /--reward-weight needs --reward FILE\.js/],
      [['grpo', '--reward', 'no/such/file.js', '--out', out], /cannot read no\/such\/file\.js: ENOENT/],
      [['grpo', '--reward', 'package.json', '--reward-weight', '0', '--out', out], /--reward-weight must be in \(0, 10\], got 0/],
    ];
    for (const [args, message] of cases) {
      const run = cli(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('the writer', () => {
  const files = [
    { path: 'README.md', text: 'a' },
    { path: 'accelerate/zero2.yaml', text: 'b' },
  ];

  it('refuses a path that leaves the folder', () => {
    const root = path.join(tmp, 'w1');
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a/./../../b', '', 'a//b', '..']) {
      expect(() => insidePath(root, bad), bad).toThrow(UsageError);
      expect(() => writeProject(root, [{ path: bad, text: 'x' }], { force: true }), bad).toThrow(UsageError);
    }
    expect(fs.existsSync(path.join(tmp, 'x'))).toBe(false);
    expect(insidePath(root, 'accelerate/zero2.yaml')).toBe(path.join(root, 'accelerate', 'zero2.yaml'));
  });

  it('writes a new folder, refuses a non-empty one without force, overwrites with it, and leaves no staging folder', () => {
    const root = path.join(tmp, 'w2', 'deep');
    writeProject(root, files, { force: false });
    expect(readTree(root)).toEqual({ 'README.md': 'a', 'accelerate/zero2.yaml': 'b' });
    expect(() => writeProject(root, files, { force: false })).toThrow(/not empty.*--force/);
    fs.writeFileSync(path.join(root, 'mine.txt'), 'keep');
    writeProject(root, [{ path: 'README.md', text: 'new' }], { force: true });
    expect(readTree(root)).toEqual({ 'README.md': 'new', 'accelerate/zero2.yaml': 'b', 'mine.txt': 'keep' });
    expect(fs.readdirSync(path.dirname(root))).toEqual(['deep']);
  });

  it('never writes through a symbolic link', () => {
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    const root = path.join(tmp, 'w3');
    fs.mkdirSync(root);
    fs.symlinkSync(outside, path.join(root, 'accelerate'));
    expect(() => writeProject(root, files, { force: true })).toThrow(/symbolic link/);
    fs.symlinkSync(path.join(outside, 'target.md'), path.join(tmp, 'w3', 'README.md'));
    expect(() => writeProject(root, [{ path: 'README.md', text: 'x' }], { force: true })).toThrow(/symbolic link/);
    const linked = path.join(tmp, 'w4');
    fs.symlinkSync(outside, linked);
    expect(() => writeProject(linked, files, { force: true })).toThrow(/symbolic link/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(outside, 'target.md'))).toBe(false); // nothing written through README.md's link
  });

  it('refuses a file in the place of the folder', () => {
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => writeProject(file, files, { force: true })).toThrow(/not a folder/);
  });
});

describe('the README’s hardware section', () => {
  it('prints the calculator’s table for each training step', () => {
    const project = buildProject('dpo', exportSettings('dpo', 'default'), 'default');
    const readme = project.files.find((f) => f.path === 'README.md')!.text;
    const steps = hardwareSteps(project.plan);
    expect(steps.map((s) => s.script)).toEqual(['train_sft.py', 'train_dpo.py']);
    for (const step of steps) expect(readme).toContain(hardwareMarkdown(hardwareTable(step)));
    // One cell checked against the calculator directly: ZeRO-3 on 8 GPUs for the DPO step.
    const cell = hardwareTable(steps[1]).cells.find((c) => c.stage === 3 && c.gpus === 8)!;
    expect(cell.gb).toBeCloseTo(stepMemory(steps[1], 3, 8).total / 1e9, 9);
    expect(readme).toMatch(/smallest setting that fits: 1 GPU of 24 GB/);
  });

  it('says LoRA runs need far less than the full fine-tuning the calculator counts', () => {
    const readme = buildProject('sft', exportSettings('sft', 'lora_r4'), 'lora_r4').files.find((f) => f.path === 'README.md')!.text;
    expect(readme).toMatch(/The run used LoRA: the calculator counts full fine-tuning/);
  });
});
