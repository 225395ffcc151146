// Chapter 1's MDP stepper with its real policy, the shipped agent SFT checkpoint: stepping one token at a time
// (the page's loop, through the worker client) walks exactly the episode that generate() samples for the same
// seed, and the greedy episodes the chapter describes are what the checkpoint does.
import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyAction, chooseAction, mdpContext, policyInput, problemFor, startEpisode, type Episode } from '@/app/_components/widgets/mdp-episode';
import { labRules } from '@/app/_components/widgets/mdp-rules';
import { createPolicyClient } from '@/app/_components/widgets/policy-client';
import type { FromPolicy, ToPolicy } from '@/app/_components/widgets/policy-protocol';
import { loadTinyLM } from '@/lib/models/checkpoint';
import { generate, nextTokenProbs } from '@/lib/models/generate';
import type { TinyLM } from '@/lib/models/tiny-lm';
import { createRng } from '@/lib/random';
import { CHECKPOINTS, createAgentLabTask } from '@/lib/train/lab-setup';

const task = createAgentLabTask();
const ctx = mdpContext(task, labRules());
const tok = task.tokenizer;
let model: TinyLM;

beforeAll(async () => {
  await tf.setBackend('cpu');
  model = loadTinyLM(new Uint8Array(fs.readFileSync(`public/${CHECKPOINTS.agent_sft}`)), { frozen: true });
});

/** A Worker stand-in that answers as policy.worker.ts does, asynchronously, with the real model. */
class ModelWorker {
  onmessage: ((event: { data: FromPolicy }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  postMessage({ id, row }: ToPolicy) {
    void nextTokenProbs(model, [row], 1, tok.pad).then((probs) => this.onmessage?.({ data: { id, probs, backend: 'cpu' } }));
  }
  terminate() {}
}

/** The page's loop: ask the policy for π_θ(· | s_t), choose a_t, apply it, until the episode ends. */
async function walk(prompt: string, seed: number, greedy: boolean): Promise<Episode> {
  const policy = createPolicyClient(() => new ModelWorker() as unknown as Worker);
  const rng = createRng(seed);
  let episode = startEpisode(task, problemFor(task, prompt, seed));
  while (!episode.end) {
    const { probs } = await policy.nextTokenProbs(policyInput(episode));
    const action = chooseAction(probs, rng, greedy);
    episode = applyAction(episode, action.token, action.prob, ctx);
  }
  policy.dispose();
  return episode;
}

async function sampled(episode: Episode, seed: number, greedy: boolean) {
  const gen = await generate(
    model,
    [episode.prompt],
    { temperature: greedy ? 0 : 1, max_completion_length: ctx.rules.maxCompletion, eos_id: tok.eos, pad_id: tok.pad },
    createRng(seed),
    ctx.env,
  );
  return { completion: gen.completions[0].slice(0, gen.lengths[0]), observed: gen.observationMask[0].slice(0, gen.lengths[0]) };
}

describe('the stepper walks the episode generate() samples', () => {
  for (const [prompt, seed, greedy] of [
    ['347*6=', 0, false],
    ['347*6=', 2, false],
    ['576*9=', 1, false],
    ['random', 7, false],
    ['211*4=', 0, true],
  ] as const) {
    it(`${prompt}, seed ${seed}, ${greedy ? 'greedy' : 'sampled'}`, async () => {
      const episode = await walk(prompt, seed, greedy);
      const want = await sampled(episode, seed, greedy);
      expect(episode.completion).toEqual(want.completion);
      expect(episode.roles.map((r) => Number(r === 'observation'))).toEqual(want.observed);
    });
  }
});

describe('what the checkpoint does greedily (chapter 1 describes these episodes)', () => {
  it('347*6: calls the calculator, copies its answer, earns 1.1', async () => {
    const episode = await walk('347*6=', 0, true);
    expect(episode.end).toMatchObject({ reason: 'eos', text: '[347*6]=2082 #### 2082', reward: expect.closeTo(1.1, 12) });
    expect(episode.steps).toHaveLength(18);
  });

  it('576*9: answers from memory, wrongly, and earns only the format reward', async () => {
    const episode = await walk('576*9=', 0, true);
    expect(episode.steps.every((s) => s.observation.length === 0)).toBe(true);
    expect(episode.end).toMatchObject({ reason: 'eos', correctness: 0, format: 1 });
  });

  it('the first token decides: with sampling, seed 0 calls on 347*6 and seed 2 answers from memory', async () => {
    expect(tok.decode([(await walk('347*6=', 0, false)).steps[0].token])).toBe('[');
    expect(tok.decode([(await walk('347*6=', 2, false)).steps[0].token])).toBe('#');
  });
});

describe('the policy client', () => {
  /** A worker that answers every call with an error, or crashes while loading. */
  class BrokenWorker {
    onmessage: ((event: { data: FromPolicy }) => void) | null = null;
    onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
    terminated = false;
    constructor(private readonly mode: 'refuse' | 'crash') {}
    postMessage({ id }: ToPolicy) {
      setTimeout(() => (this.mode === 'refuse' ? this.onmessage?.({ data: { id, error: 'a row must hold 1 to 33 tokens' } }) : this.onerror?.({ message: 'SyntaxError in the worker', preventDefault() {} })));
    }
    terminate() {
      this.terminated = true;
    }
  }

  it('starts no worker until the first call, and passes the worker’s refusal on as an error', async () => {
    const spawned: BrokenWorker[] = [];
    const policy = createPolicyClient(() => (spawned.push(new BrokenWorker('refuse')), spawned.at(-1) as unknown as Worker));
    expect(spawned).toHaveLength(0);
    await expect(policy.nextTokenProbs([])).rejects.toThrow('a row must hold 1 to 33 tokens');
    expect(spawned).toHaveLength(1);
  });

  it('fails pending calls when the worker crashes, and starts a fresh worker for the next call', async () => {
    const spawned: BrokenWorker[] = [];
    const policy = createPolicyClient(() => (spawned.push(new BrokenWorker('crash')), spawned.at(-1) as unknown as Worker));
    await expect(policy.nextTokenProbs([tok.bos])).rejects.toThrow('SyntaxError in the worker');
    expect(spawned[0].terminated).toBe(true);
    await expect(policy.nextTokenProbs([tok.bos])).rejects.toThrow();
    expect(spawned).toHaveLength(2);
  });

  it('reports a browser that refuses workers as an error, not a throw', async () => {
    const policy = createPolicyClient(() => {
      throw new Error('Worker is not defined');
    });
    await expect(policy.nextTokenProbs([tok.bos])).rejects.toThrow('the policy worker did not start: Worker is not defined');
  });
});
