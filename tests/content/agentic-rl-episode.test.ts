// Chapter 1's real episode and its agent-lab section: every number the prose prints about the stepper's episode,
// the reward and the lab's setup is recomputed here from the code that the widget and the trainer run. The greedy
// episodes themselves are pinned against the shipped checkpoint in tests/unit/widgets/mdp-policy.test.ts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  discountedReturns,
  mdpContext,
  startEpisode,
  stepRewards,
  turns,
} from '@/app/_components/widgets/mdp-episode';
import { labRules } from '@/app/_components/widgets/mdp-rules';
import { agentProblem } from '@/lib/tasks/agent';
import { agentPresets, agentSchema } from '@/lib/train/agent-config';
import { createAgentLabTask } from '@/lib/train/lab-setup';

const source = fs.readFileSync('content/chapters/01-agentic-rl.mdx', 'utf8');
const section = (heading: string) => {
  const start = source.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(0);
  const end = source.indexOf('\n## ', start + 1);
  return source.slice(start, end);
};
const real = section('A real episode, step by step');
const lab = section('The agent lab');

const task = createAgentLabTask();
const ctx = mdpContext(task, labRules());

/** The greedy episode on 347*6 (the checkpoint writes this, see mdp-policy.test.ts), replayed through the stepper. */
function greedy347() {
  let episode = startEpisode(task, agentProblem(347, 6));
  for (const token of [...task.tokenizer.encode('[347*6] #### 2082'), task.tokenizer.eos]) episode = applyAction(episode, token, 1, ctx);
  return episode;
}

describe('chapter 1, a real episode', () => {
  it('states the vocabulary size and the reward weights the lab uses', () => {
    expect(Number(/a vocabulary of (\d+) \(/.exec(real)![1])).toBe(task.tokenizer.vocabSize);
    const m = /correctness \(1 if[^)]*\) with weight ([\d.]+), and format \([^)]*\) with weight ([\d.]+)\. A right answer in the right format earns ([\d.]+); a wrong one in the right format earns ([\d.]+)\./.exec(real);
    expect(m).not.toBeNull();
    const [wc, wf, right, wrong] = m!.slice(1).map(Number);
    expect([wc, wf]).toEqual([ctx.rules.weights.correctness, ctx.rules.weights.format]);
    expect(right).toBeCloseTo(wc + wf, 12);
    expect(wrong).toBeCloseTo(wf, 12);
  });

  it('counts the greedy episode’s actions, observation tokens, reward, first return and turn-level actions', () => {
    const episode = greedy347();
    const m = /`\[347\*6\]=2082 #### 2082`: (\d+) actions, (\d+) observation tokens and a reward of ([\d.]+)\. With \$\\gamma = 0\.9\$ the first action's return is \$0\.9\^\{(\d+)\} \\times ([\d.]+) \\approx ([\d.]+)\$, a sixth/.exec(real);
    expect(m).not.toBeNull();
    const [actions, observed, reward, power, times, G0] = m!.slice(1).map(Number);
    expect(task.tokenizer.decode(episode.completion)).toBe('[347*6]=2082 #### 2082');
    expect(actions).toBe(episode.steps.length);
    expect(observed).toBe(episode.roles.filter((r) => r === 'observation').length);
    expect(reward).toBeCloseTo(episode.end!.reward, 12);
    expect(times).toBeCloseTo(episode.end!.reward, 12);
    expect(power).toBe(episode.steps.length - 1);
    const G = discountedReturns(stepRewards(episode), 0.9);
    expect(G0).toBe(Number(G[0].toFixed(3)));
    expect(Math.abs(G[0] / G.at(-1)! - 1 / 6)).toBeLessThan(0.01); // "a sixth of what the last one gets"
    expect(/one action per token, (\d+) of them/.exec(real)![1]).toBe(String(episode.steps.length));
    expect(/the same episode has (\w+) actions/.exec(real)![1]).toBe(['zero', 'one', 'two', 'three'][turns(episode, ctx).filter((t) => t.role === 'policy').length]);
  });

  it('places the stepper in the section', () => {
    expect(real).toContain('<MdpStepper />');
  });
});

describe('chapter 1, the agent lab', () => {
  it('embeds the lab and lists it in the frontmatter', () => {
    expect(lab).toContain('<LabEmbed lab="agent" />');
    expect(source).toMatch(/^labs: \[agent\]$/m);
  });

  it('describes the lab’s batch as the schema sets it', () => {
    const m = /samples (\d+) episodes for each of (\d+) prompts/.exec(lab);
    const G = agentSchema.num_generations.default;
    expect(m!.slice(1).map(Number)).toEqual([G, agentSchema.per_device_train_batch_size.default / G]);
    expect(/with seed (\d+) \(the default\)/.exec(lab)![1]).toBe(String(agentSchema.seed.default));
  });

  it('names a command in every item that quotes a figure, and every command names real presets and fields', () => {
    const items = lab.split('\n').filter((line) => line.startsWith('- '));
    expect(items).toHaveLength(7);
    for (const item of items) expect(item, item.slice(0, 60)).toMatch(/`npm run train -- agent --backend wasm[^`]*`/);
    const commands = [...lab.matchAll(/`(npm run train -- agent[^`]*)`/g)].map((m) => m[1]);
    for (const command of commands) {
      for (const [, preset] of command.matchAll(/--preset (\S+)/g)) expect(Object.keys(agentPresets)).toContain(preset);
      for (const [, field] of command.matchAll(/--set (\w+)=/g)) expect(Object.keys(agentSchema)).toContain(field);
    }
  });

  it('gives the presets’ own settings: a call cost of 1.5 and 200 steps for the masking bug', () => {
    expect(lab).toContain(`each call costs ${agentPresets.tool_cost.overrides.reward_weight_tool_cost}, more than a right answer earns`);
    expect(agentPresets.tool_cost.overrides.reward_weight_tool_cost).toBeGreaterThan(ctx.rules.weights.correctness);
    expect(lab).toContain(`--preset train_on_observations\` (${agentPresets.train_on_observations.overrides.max_steps} steps)`);
  });
});
