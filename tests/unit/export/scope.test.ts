/**
 * The export statement (lib/export/scope.ts through lib/spec/export.ts exportStatement): every trainer and preset
 * gets one before any project is built; a trainer without a project says why; the README of every project prints
 * exactly the statement the lab shows; and the statement names what the project's own rows say is not carried.
 */
import { describe, expect, it } from 'vitest';
import { agentEpisodeRules } from '@/lib/export/python/environment';
import type { Plan } from '@/lib/export/mapping';
import { scopeMarkdown, scopeSentences } from '@/lib/export/scope';
import { buildExport, exportSettings, exportStatement } from '@/lib/spec/export';
import { TRAINER_NAMES, TRAINERS } from '@/lib/spec/registry';
import { presetSettings } from '@/lib/train/config';

const statementOf = (trainer: (typeof TRAINER_NAMES)[number], preset: string) => exportStatement(trainer, presetSettings(TRAINERS[trainer].schema, TRAINERS[trainer].presets[preset]));
const readme = (files: { path: string; text: string }[]) => files.find((f) => f.path === 'README.md')!.text;

describe('the export statement', () => {
  it('exists for every trainer and preset: a refusal with its reason, or what the project holds and leaves out', () => {
    let refused = 0;
    for (const trainer of TRAINER_NAMES) {
      for (const preset of Object.keys(TRAINERS[trainer].presets)) {
        const statement = statementOf(trainer, preset);
        if ('refusal' in statement) {
          refused++;
          expect('refusal' in TRAINERS[trainer].export, `${trainer}/${preset}`).toBe(true);
          // The reason, not only the verdict: the spec's own sentence follows.
          expect(statement.refusal, `${trainer}/${preset}`).toMatch(/^This lab has no TRL project: .{60,}/);
          continue;
        }
        expect(statement.writes, `${trainer}/${preset}`).toMatch(/^These settings as a TRL project for /);
        expect(statement.writes).toContain(statement.model.split('/')[1]);
        // Every project replaces the lab's toy task, and says so with a reason.
        expect(statement.notExported.length, `${trainer}/${preset}`).toBeGreaterThan(0);
        for (const n of statement.notExported) expect(n.why.length, `${trainer}/${preset}: ${n.what}`).toBeGreaterThan(30);
        expect(statement.sentences).toEqual(scopeSentences(statement));
      }
    }
    expect(refused).toBe(Object.keys(TRAINERS.ppo.presets).length + Object.keys(TRAINERS.team.presets).length);
  });

  it('says why settings that cannot be exported are not, instead of describing a project', () => {
    const statement = exportStatement('agent', { ...presetSettings(TRAINERS.agent.schema, TRAINERS.agent.presets.memory), answer_attempts: 99 });
    expect(statement).toEqual({ refusal: expect.stringMatching(/^These settings cannot be exported: .*answer_attempts/) });
  });

  it('is printed as it is shown: the README of every project of every preset carries the lab’s statement, word for word', async () => {
    for (const trainer of TRAINER_NAMES) {
      const spec = TRAINERS[trainer].export;
      if (!('scope' in spec)) continue;
      for (const preset of Object.keys(TRAINERS[trainer].presets)) {
        const settings = exportSettings(trainer, preset);
        const project = await buildExport(trainer, settings, preset);
        const text = readme(project.files);
        expect(text, `${trainer}/${preset}`).toContain(scopeMarkdown(spec.scope(settings)));
        const shown = exportStatement(trainer, settings);
        if ('refusal' in shown) throw new Error(`${trainer}/${preset} refused: ${shown.refusal}`);
        for (const sentence of shown.sentences) expect(text, `${trainer}/${preset}`).toContain(sentence);
      }
    }
  });

  it('names what the project’s own rows leave out: the memory task, dynamic sampling, the masking bug, replay', async () => {
    const agent = async (preset: string) => {
      const settings = exportSettings('agent', preset);
      const shown = exportStatement('agent', settings);
      if ('refusal' in shown) throw new Error(shown.refusal);
      return { shown, plan: (await buildExport('agent', settings, preset)).plan as Plan };
    };
    const memory = await agent('memory');
    expect(memory.shown.sentences[1]).toMatch(/^The memory task is not exported: .*12-token window.*with the memory tool \(remember and recall\)/);
    expect(memory.plan.rows.find((r) => r.field === 'task')!.note).toContain('12-token sliding window has no counterpart');
    const noTool = await agent('memory_no_tool');
    expect(noTool.shown.sentences[1]).toMatch(/^The memory task is not exported: .*without tools\.$/);
    expect(noTool.shown.writes).toContain('without tools');
    expect(noTool.plan.rows.find((r) => r.field === 'task')!.status).toBe('none');

    // The project's episode rules and the statement agree on whether there is an environment, preset by preset.
    for (const preset of Object.keys(TRAINERS.agent.presets)) {
      const { shown, plan } = await agent(preset);
      expect(shown.writes.includes('AgentEnvironment'), preset).toBe(agentEpisodeRules(plan) !== null);
      expect(shown.sentences.join(' ').includes('masking bug'), preset).toBe(plan.rows.some((r) => r.field === 'train_on_tool_results' && r.value === true));
      expect(shown.sentences.some((s) => s.startsWith('The memory task')), preset).toBe(plan.rows.some((r) => r.field === 'task' && r.value === 'memory'));
    }

    const dapo = exportStatement('grpo', exportSettings('grpo', 'dapo'));
    const plain = exportStatement('grpo', exportSettings('grpo', 'default'));
    expect('sentences' in dapo && dapo.sentences.join(' ')).toContain('DAPO’s dynamic sampling is not exported');
    expect('sentences' in plain && plain.sentences.join(' ')).not.toContain('dynamic sampling');
    const replay = exportStatement('sft', exportSettings('sft', 'full_ft_replay'));
    expect('sentences' in replay && replay.sentences.join(' ')).toMatch(/Replay of the old task \(replay_fraction 0\.25\) is not exported/);
  });

  it('describes the self-improvement project its filter and mix make, never the verifier’s under majority', () => {
    const writes = (preset: string) => {
      const shown = exportStatement('self_improve', exportSettings('self_improve', preset));
      return 'writes' in shown ? shown.writes : shown.refusal;
    };
    expect(writes('default')).toContain('keeping what the verifier accepts, SFTTrainer on the kept samples mixed with demonstrations');
    expect(writes('majority')).toContain('keeping the answers most of a problem’s samples agree on (no verifier)');
    expect(writes('majority')).not.toContain('verifier accepts');
    expect(writes('sft_only')).toContain('SFTTrainer on the demonstrations alone (the sft_only control)');
  });
});
