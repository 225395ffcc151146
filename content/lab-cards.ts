/**
 * What each lab teaches, in a line for its card on the home page and the labs index (content/labs.ts says what it
 * trains). How long it trains is not written here: it is measured (content/lab-times.json, npm run record:runs).
 */
export const labTeaches: Record<string, string> = {
  agent: 'Multi-turn rollouts with a tool, which tokens are trained on (the model’s, not the tool’s), and how GRPO turns “calling helped” into a habit; with the memory presets, writing a fact down before the attention window drops it; with reflect, what a second try after “wrong” is worth.',
  lora: 'Low-rank adaptation against full fine-tuning: trainable parameters, optimiser memory, forgetting, the rank of an update, merging.',
  grpo: 'Group-relative advantages from a verifiable reward, the clipped objective, and reading reward, KL and held-out accuracy as a run goes.',
  ppo: 'An actor-critic with GAE and the clipped surrogate, and what breaks without the clip or with too high a learning rate.',
  'self-improve': 'Expert iteration: sample, filter by a verifier or a majority vote, fine-tune, go harder; why the filter’s precision decides what the model learns.',
  dpo: 'Learning from preference pairs with no reward model: implicit rewards, margins, β, and over-optimisation on a small pair set.',
  team: 'Two policies on one shared reward: group-relative credit for each role, each role trained on its own tokens only, and telling a protocol apart from a lucky team (what messages say, whether the listener reads them).',
  vision: 'An image encoder whose patches become tokens in front of the question, RL with a verifiable reward on pictures (as R1-V counts objects), reading attention over the picture, and a text-only floor that shows the model really looks.',
};
