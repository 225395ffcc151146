/**
 * The chapters' code exercises: the reader writes one function of the training core in plain JavaScript, and
 * "Check" runs it in a sandbox on random cases whose expected values come from the core itself
 * (lib/exercises/reference.ts: the same functions the labs train with). Each entry is data: where it sits, what it
 * asks (statement: paragraphs with `code` and $math$), the signature, a starter, a hint, a worked solution, and the
 * usual mistakes. Its random cases are code, so they live in lib/exercises/cases.ts. A chapter shows it with
 * <Exercise id="…" />.
 *
 * tfjs-free: the exercise island and the grader read this file in the page.
 */
import { EXERCISE_IDS, isExerciseId, type ExerciseId } from './exercise-ids';

export { EXERCISE_IDS, isExerciseId, type ExerciseId };

export interface Exercise {
  id: ExerciseId;
  /** The chapter's slug (content/course.ts). */
  chapter: string;
  /** The learning path's stage (app/path): the first exercises of a chapter, or the further ones. */
  stage: 'foundation' | 'expert';
  title: string;
  /** Paragraphs with `code` and $inline math$; a paragraph whose lines all start with "- " is a list. */
  statement: readonly string[];
  /** The function the reader defines. */
  entry: string;
  /** Its parameters, in order: the names failing cases are shown with. */
  params: readonly string[];
  starter: string;
  hint: string;
  solution: string;
  /**
   * Usual wrong answers, each with what such code returns (`wrong`, same arguments) and the hint to show when the
   * reader's value is exactly that: a forward loop where a backward one is needed, a factor left out.
   */
  mistakes?: readonly { hint: string; wrong(...args: never[]): unknown }[];
  /** A received number r matches an expected e when |r − e| ≤ abs + rel·|e| (the core computes in float32). */
  tolerance?: { abs: number; rel: number };
}

export const DEFAULT_TOLERANCE = { abs: 1e-4, rel: 1e-4 } as const;

/** "function gae(rewards, values, gamma, lam)" */
export const signatureOf = (e: Pick<Exercise, 'entry' | 'params'>) => `function ${e.entry}(${e.params.join(', ')})`;

/**
 * Σ_t combine(A_t·ρ_t, A_t·clip(ρ_t, 1 − c, 1 + c)) over one sequence: the clipped surrogate's usual mistakes (below)
 * differ only in how they combine the two terms and whether they average.
 */
function surrogateTotal(newLogprobs: number[], oldLogprobs: number[], advantages: number[], cliprange: number, combine: (plain: number, clipped: number) => number): number {
  return newLogprobs.reduce((total, lp, t) => {
    const ratio = Math.exp(lp - oldLogprobs[t]);
    const clipped = Math.min(Math.max(ratio, 1 - cliprange), 1 + cliprange);
    return total + combine(advantages[t] * ratio, advantages[t] * clipped);
  }, 0);
}

/** W x for a matrix stored as rows. */
const matVec = (M: number[][], v: number[]) => M.map((row) => row.reduce((sum, m, j) => sum + m * v[j], 0));

/** The LoRA layer W0 x + scale(alpha, r) · B A x: its usual mistakes differ in the scale, or in what it scales. */
function loraWith(W0: number[][], A: number[][], B: number[][], x: number[], updateScale: number, baseScale = 1): number[] {
  const up = matVec(B, matVec(A, x));
  return matVec(W0, x).map((h, i) => baseScale * h + updateScale * up[i]);
}

/** Mean over pairs of f(margin), where the margin is beta times the chosen-minus-rejected difference of `delta`. */
function dpoWith(pc: number[], pr: number[], rc: number[], rr: number[], beta: number, f: (margin: number) => number, withReference = true): number {
  const total = pc.reduce((sum, _, i) => {
    const chosen = withReference ? pc[i] - rc[i] : pc[i];
    const rejected = withReference ? pr[i] - rr[i] : pr[i];
    return sum + f(beta * (chosen - rejected));
  }, 0);
  return total / pc.length;
}
const softplus = (z: number) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));

/** Advantages standardised over `groupSize` rewards at a time, with the std's denominator and scaling chosen. */
function advantagesWith(rewards: number[], groupSize: number, { bessel = true, scale = true } = {}): number[] {
  const out: number[] = [];
  for (let start = 0; start < rewards.length; start += groupSize) {
    const group = rewards.slice(start, start + groupSize);
    const mean = group.reduce((a, r) => a + r, 0) / group.length;
    const std = Math.sqrt(group.reduce((a, r) => a + (r - mean) ** 2, 0) / (group.length - (bessel ? 1 : 0)));
    for (const r of group) out.push(scale ? (r - mean) / (std + 1e-4) : r - mean);
  }
  return out;
}

/** Real tokens per row of a padding mask. */
const realTokens = (mask: number[][]) => mask.map((row) => row.reduce((a, m) => a + m, 0));

/** GSPO's loss with the sequence ratio's average taken over `tokensOf(row)` tokens, summed or averaged over rows. */
function gspoWith(logps: number[][], old: number[][], mask: number[][], adv: number[], lo: number, hi: number, { padding = false, mean = true } = {}): number {
  const total = logps.reduce((sum, row, i) => {
    const logRatio = row.reduce((a, lp, t) => a + mask[i][t] * (lp - old[i][t]), 0);
    const s = Math.exp(logRatio / (padding ? row.length : realTokens(mask)[i]));
    const clipped = Math.min(Math.max(s, 1 - lo), 1 + hi);
    return sum - Math.min(s * adv[i], clipped * adv[i]);
  }, 0);
  return mean ? total / logps.length : total;
}

export const exercises = [
  {
    id: 'lora-forward',
    chapter: 'sft-lora',
    stage: 'foundation',
    title: 'The LoRA forward pass',
    statement: [
      "Write the adapted layer's output $h = W_0 x + \\frac{\\alpha}{r} B A x$ for one input vector, with the shapes of this chapter: $W_0$ is $d_{\\mathrm{out}} \\times d_{\\mathrm{in}}$, $A$ is $r \\times d_{\\mathrm{in}}$ and $B$ is $d_{\\mathrm{out}} \\times r$.",
      'Matrices are arrays of rows (`W0[i][j]` is row $i$, column $j$), `x` has $d_{\\mathrm{in}}$ numbers, and the rank $r$ is the number of rows of `A`. Return $h$, an array of $d_{\\mathrm{out}}$ numbers.',
    ],
    entry: 'loraForward',
    params: ['W0', 'A', 'B', 'x', 'alpha'],
    starter: `function loraForward(W0, A, B, x, alpha) {
  const r = A.length;
  // h = W0 x + (alpha / r) * B (A x): project x down to r numbers with A, back up with B.
  return W0.map(() => 0);
}
`,
    hint: 'Compute u = A x first (r numbers), then B u (d_out numbers): two small matrix-vector products, never the full B A. Scale only the update, not W0 x.',
    solution: `function loraForward(W0, A, B, x, alpha) {
  const r = A.length;
  const s = alpha / r;
  const matVec = (M, v) => M.map((row) => row.reduce((sum, m, j) => sum + m * v[j], 0));
  const down = matVec(A, x); // A x: r numbers
  const up = matVec(B, down); // B A x: d_out numbers
  return matVec(W0, x).map((h, i) => h + s * up[i]);
}
`,
    mistakes: [
      {
        hint: 'That is the layer without the scale: the update B A x is multiplied by alpha / r (alpha is lora_alpha, r the number of rows of A).',
        wrong: (W0: number[][], A: number[][], B: number[][], x: number[]) => loraWith(W0, A, B, x, 1),
      },
      {
        hint: 'That scales the update by alpha; the scale is alpha / r, so that changing the rank does not change how large the update starts.',
        wrong: (W0: number[][], A: number[][], B: number[][], x: number[], alpha: number) => loraWith(W0, A, B, x, alpha),
      },
      {
        hint: 'That scales W0 x too: only the update B A x is multiplied by alpha / r, and the frozen layer passes through unchanged.',
        wrong: (W0: number[][], A: number[][], B: number[][], x: number[], alpha: number) => loraWith(W0, A, B, x, alpha / A.length, alpha / A.length),
      },
    ],
  },
  {
    id: 'discounted-returns',
    chapter: 'ppo',
    stage: 'foundation',
    title: 'Discounted returns',
    statement: [
      'The return from step $t$ of an episode that ends after its last reward is $G_t = r_t + \\gamma r_{t+1} + \\gamma^2 r_{t+2} + \\cdots$.',
      'Given the rewards of one episode and the discount $\\gamma$, return $G_t$ for every step $t$, an array as long as `rewards`. This is GAE with $\\lambda = 1$ and a critic that predicts 0 everywhere, which is how the reference computes it.',
    ],
    entry: 'discountedReturns',
    params: ['rewards', 'gamma'],
    starter: `function discountedReturns(rewards, gamma) {
  const returns = new Array(rewards.length).fill(0);
  // Walk backwards: G_t = r_t + gamma * G_{t+1}, with nothing after the last step.
  return returns;
}
`,
    hint: 'One backward pass: keep a running G, and at each step from the last to the first set G = r_t + gamma * G.',
    solution: `function discountedReturns(rewards, gamma) {
  const returns = new Array(rewards.length);
  let G = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    G = rewards[t] + gamma * G;
    returns[t] = G;
  }
  return returns;
}
`,
    mistakes: [
      {
        hint: 'That is what a forward loop gives: each value sums the rewards up to step t. G_t sums the rewards from t to the end, so walk from the last step back to the first.',
        wrong: (rewards: number[], gamma: number) => {
          let G = 0;
          return rewards.map((r) => (G = r + gamma * G));
        },
      },
      {
        hint: 'That is the return without discounting: each later reward must be multiplied by gamma once more than the one before it (G = r_t + gamma * G).',
        wrong: (rewards: number[]) => rewards.map((_, t) => rewards.slice(t).reduce((a, b) => a + b, 0)),
      },
    ],
  },
  {
    id: 'gae',
    chapter: 'ppo',
    stage: 'foundation',
    title: 'Generalised advantage estimation',
    statement: [
      'Compute the GAE advantages of one rollout: $\\delta_t = r_t + \\gamma V(s_{t+1}) - V(s_t)$ and $\\hat{A}_t = \\delta_t + \\gamma \\lambda \\hat{A}_{t+1}$, with nothing after the last step.',
      '`rewards` has length $T$. `values` has length $T + 1$: $V(s_0), \\ldots, V(s_{T-1})$, then the bootstrap value $V(s_T)$ of the state after the last step (the rollout was cut there; the episode goes on). Return the $T$ advantages.',
    ],
    entry: 'gae',
    params: ['rewards', 'values', 'gamma', 'lam'],
    starter: `function gae(rewards, values, gamma, lam) {
  const T = rewards.length;
  const advantages = new Array(T).fill(0);
  // Walk backwards: delta_t = r_t + gamma * V(s_{t+1}) - V(s_t), then A_t = delta_t + gamma * lam * A_{t+1}.
  return advantages;
}
`,
    hint: 'The bootstrap value is values[T]: every step t uses values[t + 1], including the last. Keep the running advantage in one variable and go from t = T − 1 down to 0.',
    solution: `function gae(rewards, values, gamma, lam) {
  const T = rewards.length;
  const advantages = new Array(T);
  let next = 0; // A_{t+1}
  for (let t = T - 1; t >= 0; t--) {
    const delta = rewards[t] + gamma * values[t + 1] - values[t];
    next = delta + gamma * lam * next;
    advantages[t] = next;
  }
  return advantages;
}
`,
    mistakes: [
      {
        hint: 'Those are the one-step TD errors δ_t alone: the recursion is missing. Add gamma * lam times the next step’s advantage, going from the last step back to the first.',
        wrong: (rewards: number[], values: number[], gamma: number) => rewards.map((r, t) => r + gamma * values[t + 1] - values[t]),
      },
      {
        hint: 'That is what a forward loop gives: A_t depends on A_{t+1}, the step after it, so the loop must run from t = T − 1 down to 0.',
        wrong: (rewards: number[], values: number[], gamma: number, lam: number) => {
          let previous = 0;
          return rewards.map((r, t) => (previous = r + gamma * values[t + 1] - values[t] + gamma * lam * previous));
        },
      },
    ],
  },
  {
    id: 'clipped-surrogate',
    chapter: 'ppo',
    stage: 'expert',
    title: 'The clipped surrogate loss',
    statement: [
      "Compute PPO's policy loss for one sequence as TRL does: the ratio $\\rho_t = \\exp(\\log \\pi_\\theta - \\log \\pi_{\\theta_{\\mathrm{old}}})$ at each token, then the mean over the tokens of $\\max(-\\hat{A}_t \\rho_t,\\; -\\hat{A}_t \\bar{\\rho}_t)$, where $\\bar{\\rho}_t = \\mathrm{clip}(\\rho_t, 1 - \\varepsilon, 1 + \\varepsilon)$.",
      'The three arrays have one number per token, and `cliprange` is $\\varepsilon$. Return one number.',
    ],
    entry: 'ppoPolicyLoss',
    params: ['newLogprobs', 'oldLogprobs', 'advantages', 'cliprange'],
    starter: `function ppoPolicyLoss(newLogprobs, oldLogprobs, advantages, cliprange) {
  let total = 0;
  // For each token: ratio = exp(new - old), the larger of -A * ratio and -A * clip(ratio, 1 - c, 1 + c).
  return total;
}
`,
    hint: 'The max of the two negated terms is the min of the two objectives: clip the ratio with Math.min(Math.max(ratio, 1 - c), 1 + c), and divide the sum by the number of tokens.',
    solution: `function ppoPolicyLoss(newLogprobs, oldLogprobs, advantages, cliprange) {
  let total = 0;
  for (let t = 0; t < newLogprobs.length; t++) {
    const ratio = Math.exp(newLogprobs[t] - oldLogprobs[t]);
    const clipped = Math.min(Math.max(ratio, 1 - cliprange), 1 + cliprange);
    const A = advantages[t];
    total += Math.max(-A * ratio, -A * clipped);
  }
  return total / newLogprobs.length;
}
`,
    mistakes: [
      {
        hint: 'That is the min of the two negated terms, the max of the objectives: PPO keeps the pessimistic one, so take Math.max(-A * ratio, -A * clipped), the min of A * ratio and A * clipped.',
        wrong: (n: number[], o: number[], a: number[], c: number) => surrogateTotal(n, o, a, c, (x, y) => Math.min(-x, -y)) / n.length,
      },
      {
        hint: 'That is the objective, not the loss: the loss is its negative (TRL minimises it), so each term is -A times the ratio.',
        wrong: (n: number[], o: number[], a: number[], c: number) => surrogateTotal(n, o, a, c, (x, y) => Math.min(x, y)) / n.length,
      },
      {
        hint: 'That is the sum over the tokens: the loss is their mean, so divide by the number of tokens.',
        wrong: (n: number[], o: number[], a: number[], c: number) => surrogateTotal(n, o, a, c, (x, y) => Math.max(-x, -y)),
      },
    ],
  },
  {
    id: 'dpo-loss',
    chapter: 'dpo',
    stage: 'foundation',
    title: 'The DPO loss',
    statement: [
      "The arguments hold one number per preference pair: summed log-probabilities of the chosen completion $y_w$ and the rejected one $y_l$, under the policy and under the frozen reference. With $\\Delta_w = \\log \\pi_\\theta(y_w) - \\log \\pi_{\\mathrm{ref}}(y_w)$, $\\Delta_l$ the same for $y_l$, and the margin $m = \\beta (\\Delta_w - \\Delta_l)$, a pair's loss is $-\\log \\sigma(m)$.",
      "Return the mean of the pairs' losses: TRL's `loss_type='sigmoid'` with no label smoothing.",
    ],
    entry: 'dpoLoss',
    params: ['policyChosen', 'policyRejected', 'refChosen', 'refRejected', 'beta'],
    starter: `function dpoLoss(policyChosen, policyRejected, refChosen, refRejected, beta) {
  let total = 0;
  // For each pair: m = beta * ((policyChosen - refChosen) - (policyRejected - refRejected)), loss = -log(sigmoid(m)).
  return total;
}
`,
    hint: 'Write −log σ(m) as log(1 + e^(−m)); for a large negative margin, −m + log(1 + e^m) avoids overflow. Average over the pairs, not sum.',
    solution: `function dpoLoss(policyChosen, policyRejected, refChosen, refRejected, beta) {
  // -log(sigmoid(m)) = softplus(-m), written so that exp never overflows.
  const softplus = (z) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
  let total = 0;
  for (let i = 0; i < policyChosen.length; i++) {
    const m = beta * ((policyChosen[i] - refChosen[i]) - (policyRejected[i] - refRejected[i]));
    total += softplus(-m);
  }
  return total / policyChosen.length;
}
`,
    mistakes: [
      {
        hint: 'That is the sum over the pairs: the loss is their mean, so divide by the number of pairs.',
        wrong: (pc: number[], pr: number[], rc: number[], rr: number[], beta: number) => dpoWith(pc, pr, rc, rr, beta, (m) => softplus(-m)) * pc.length,
      },
      {
        hint: 'That is log σ(m), the objective, not the loss: the loss is −log σ(m), which is never negative.',
        wrong: (pc: number[], pr: number[], rc: number[], rr: number[], beta: number) => dpoWith(pc, pr, rc, rr, beta, (m) => -softplus(-m)),
      },
      {
        hint: 'That margin leaves out the reference: each completion counts by its log-ratio to the reference, policyChosen − refChosen, not by its policy log-probability alone.',
        wrong: (pc: number[], pr: number[], rc: number[], rr: number[], beta: number) => dpoWith(pc, pr, rc, rr, beta, (m) => softplus(-m), false),
      },
      {
        hint: 'That margin leaves out beta: m = beta · (Δw − Δl). beta sets how far the policy may move from the reference.',
        wrong: (pc: number[], pr: number[], rc: number[], rr: number[]) => dpoWith(pc, pr, rc, rr, 1, (m) => softplus(-m)),
      },
    ],
  },
  {
    id: 'grpo-advantages',
    chapter: 'grpo',
    stage: 'foundation',
    title: 'Group-relative advantages',
    statement: [
      "The rewards of several prompts come group after group: the first `groupSize` rewards are the first prompt's $G$ completions, and so on. Return each completion's advantage $\\hat{A}_i = (r_i - \\mathrm{mean}(r)) / (\\mathrm{std}(r) + 10^{-4})$, with the mean and the standard deviation taken within its own group and the standard deviation with the $G - 1$ denominator, as TRL scales by group.",
      'A group whose rewards are all equal gets advantages of 0.',
    ],
    entry: 'grpoAdvantages',
    params: ['rewards', 'groupSize'],
    starter: `function grpoAdvantages(rewards, groupSize) {
  const advantages = new Array(rewards.length).fill(0);
  // For each group of groupSize rewards: mean, unbiased std (divide by G - 1), then (r - mean) / (std + 1e-4).
  return advantages;
}
`,
    hint: 'Slice the rewards into groups with rewards.slice(g * groupSize, (g + 1) * groupSize). The sum of squared deviations is divided by G − 1, not G, before the square root.',
    solution: `function grpoAdvantages(rewards, groupSize) {
  const advantages = [];
  for (let start = 0; start < rewards.length; start += groupSize) {
    const group = rewards.slice(start, start + groupSize);
    const mean = group.reduce((a, r) => a + r, 0) / group.length;
    const squares = group.reduce((a, r) => a + (r - mean) ** 2, 0);
    const std = Math.sqrt(squares / (group.length - 1));
    for (const r of group) advantages.push((r - mean) / (std + 1e-4));
  }
  return advantages;
}
`,
    mistakes: [
      {
        hint: 'That divides the squared deviations by G, the population std: TRL uses the unbiased std, with G − 1 (torch.std’s default).',
        wrong: (rewards: number[], groupSize: number) => advantagesWith(rewards, groupSize, { bessel: false }),
      },
      {
        hint: 'That standardises over the whole batch: the mean and std are each group’s own, so that a prompt is compared only with itself.',
        wrong: (rewards: number[]) => advantagesWith(rewards, rewards.length),
      },
      {
        hint: 'That centres the rewards without dividing by the std: that is Dr. GRPO’s advantage (scale_rewards="none"). Here each group is also divided by its std + 1e-4.',
        wrong: (rewards: number[], groupSize: number) => advantagesWith(rewards, groupSize, { scale: false }),
      },
    ],
  },
  {
    id: 'k3-kl',
    chapter: 'grpo',
    stage: 'expert',
    title: 'The k3 estimator of the KL term',
    statement: [
      'GRPO estimates its KL penalty at each sampled token with k3: with $u = \\pi_{\\mathrm{ref}} / \\pi_\\theta$ at that token, the estimate is $u - \\log u - 1$.',
      "The arguments are the per-token log-probabilities of one completion under the policy and under the reference. Return the estimate for every token, an array as long as `logps`. The reference computes each token's value as the KL term of GRPO's loss, with $\\beta = 1$ and an advantage of 0.",
    ],
    entry: 'k3',
    params: ['logps', 'refLogps'],
    starter: `function k3(logps, refLogps) {
  // For each token: d = refLogps[t] - logps[t] = log u, then u - log u - 1.
  return logps.map(() => 0);
}
`,
    hint: 'Stay in log space: d = refLogps[t] − logps[t] is log u, so the estimate is Math.exp(d) − d − 1. It is never negative.',
    solution: `function k3(logps, refLogps) {
  return logps.map((lp, t) => {
    const d = refLogps[t] - lp; // log(pi_ref / pi_theta)
    return Math.exp(d) - d - 1;
  });
}
`,
    mistakes: [
      {
        hint: 'That takes u the other way up, π_θ / π_ref: here u = π_ref / π_θ, so log u = refLogps[t] − logps[t].',
        wrong: (logps: number[], refLogps: number[]) => logps.map((lp, t) => Math.exp(lp - refLogps[t]) - (lp - refLogps[t]) - 1),
      },
      {
        hint: 'That is k1, the plain log-ratio log(π_θ / π_ref): unbiased but noisy, and negative at some tokens. k3 adds u − 1 to −log u, which keeps every value ≥ 0.',
        wrong: (logps: number[], refLogps: number[]) => logps.map((lp, t) => lp - refLogps[t]),
      },
      {
        hint: 'That is k2, half the squared log-ratio. k3 is u − log u − 1 with u = exp(refLogps[t] − logps[t]).',
        wrong: (logps: number[], refLogps: number[]) => logps.map((lp, t) => (lp - refLogps[t]) ** 2 / 2),
      },
    ],
  },
  {
    id: 'loss-aggregation',
    chapter: 'research-2025',
    stage: 'expert',
    title: 'Token-level and sequence-level loss aggregation',
    statement: [
      "On the first, on-policy update of a batch every ratio is exactly 1, so with $\\beta = 0$ every real token of completion $i$ has the same loss $\\ell_{i,t} = -\\hat{A}_i$. Aggregate these per-token losses as TRL's `loss_type` does:",
      "- `'grpo'` (sequence level): average each completion's tokens, then average the completions;\n- `'dapo'` (token level): the sum over every real token, divided by the number of real tokens;\n- `'dr_grpo'`: the same sum, divided by $N \\cdot L_{\\max}$, the number of completions times the mask's row length.",
      '`advantages` has one number per completion; `mask` has one row per completion, 1 for a real token and 0 for padding (every row has at least one real token). Return one number.',
    ],
    entry: 'aggregateLoss',
    params: ['advantages', 'mask', 'lossType'],
    starter: `function aggregateLoss(advantages, mask, lossType) {
  // Each real token of completion i has loss -advantages[i]; padding tokens count for nothing.
  if (lossType === 'grpo') return 0;
  if (lossType === 'dapo') return 0;
  return 0; // 'dr_grpo'
}
`,
    hint: "Count each row's real tokens first: n_i = the sum of mask[i]. Then grpo is the mean of −A_i, dapo is −Σ A_i n_i / Σ n_i, and dr_grpo is −Σ A_i n_i / (N · L_max).",
    solution: `function aggregateLoss(advantages, mask, lossType) {
  const N = mask.length;
  const Lmax = mask[0].length;
  const lengths = mask.map((row) => row.reduce((a, m) => a + m, 0));
  const sum = advantages.reduce((a, A, i) => a - A * lengths[i], 0); // sum of every real token's loss
  if (lossType === 'grpo') return advantages.reduce((a, A) => a - A, 0) / N; // each row's token mean is -A_i
  if (lossType === 'dapo') return sum / lengths.reduce((a, n) => a + n, 0);
  return sum / (N * Lmax); // 'dr_grpo'
}
`,
    mistakes: [
      {
        hint: 'That has the sign turned over: each real token’s loss is −A_i (the loss goes down as the advantage goes up).',
        wrong: (advantages: number[], mask: number[][], lossType: string) => {
          const n = realTokens(mask);
          const sum = advantages.reduce((a, A, i) => a + A * n[i], 0);
          if (lossType === 'grpo') return advantages.reduce((a, A) => a + A, 0) / mask.length;
          return lossType === 'dapo' ? sum / n.reduce((a, b) => a + b, 0) : sum / (mask.length * mask[0].length);
        },
      },
      {
        hint: 'That counts the padding as tokens: a completion’s mean (grpo) and the token count (dapo) use only its real tokens, the 1s of its mask row.',
        wrong: (advantages: number[], mask: number[][]) => advantages.reduce((a, A, i) => a - (A * realTokens(mask)[i]) / mask[0].length, 0) / mask.length,
      },
      {
        hint: 'For dr_grpo that divides by the number of real tokens, which is dapo: dr_grpo divides by N · L_max, the same constant whatever the lengths.',
        wrong: (advantages: number[], mask: number[][]) => {
          const n = realTokens(mask);
          return advantages.reduce((a, A, i) => a - A * n[i], 0) / n.reduce((a, b) => a + b, 0);
        },
      },
    ],
  },
  {
    id: 'gspo-loss',
    chapter: 'research-2025',
    stage: 'expert',
    title: 'GSPO: one ratio per sequence',
    statement: [
      "GSPO replaces GRPO's per-token ratios with one ratio per completion, the geometric mean over its real tokens: $s_i = \\exp\\big(\\frac{1}{\\lvert y_i \\rvert} \\sum_t (\\log \\pi_\\theta - \\log \\pi_{\\theta_{\\mathrm{old}}})\\big)$. Its loss is the mean over completions of $-\\min(s_i \\hat{A}_i,\\; \\bar{s}_i \\hat{A}_i)$, where $\\bar{s}_i = \\mathrm{clip}(s_i, 1 - \\varepsilon_{\\mathrm{low}}, 1 + \\varepsilon_{\\mathrm{high}})$: TRL's `importance_sampling_level='sequence'` with `loss_type='grpo'` and $\\beta = 0$.",
      '`logps`, `oldLogps` and `mask` have one row per completion and one column per token; the mask is 1 for a real token and 0 for padding, which must not count. `advantages` has one number per completion. Return one number.',
    ],
    entry: 'gspoLoss',
    params: ['logps', 'oldLogps', 'mask', 'advantages', 'epsilonLow', 'epsilonHigh'],
    starter: `function gspoLoss(logps, oldLogps, mask, advantages, epsilonLow, epsilonHigh) {
  let total = 0;
  // For each completion i: s_i = exp(mean over real tokens of (logps - oldLogps)), then
  // -min(s_i * A_i, clip(s_i, 1 - epsilonLow, 1 + epsilonHigh) * A_i).
  return total;
}
`,
    hint: "Multiply each log-ratio by its mask entry before summing, and divide by the row's number of real tokens; the clip acts on s_i, once per completion.",
    solution: `function gspoLoss(logps, oldLogps, mask, advantages, epsilonLow, epsilonHigh) {
  let total = 0;
  for (let i = 0; i < logps.length; i++) {
    let sum = 0;
    let n = 0;
    for (let t = 0; t < logps[i].length; t++) {
      sum += mask[i][t] * (logps[i][t] - oldLogps[i][t]);
      n += mask[i][t];
    }
    const s = Math.exp(sum / n);
    const clipped = Math.min(Math.max(s, 1 - epsilonLow), 1 + epsilonHigh);
    const A = advantages[i];
    total += -Math.min(s * A, clipped * A);
  }
  return total / logps.length;
}
`,
    mistakes: [
      {
        hint: 'That averages the log-ratio over the whole row, padding included: divide each row’s masked sum by its number of real tokens.',
        wrong: (l: number[][], o: number[][], m: number[][], a: number[], lo: number, hi: number) => gspoWith(l, o, m, a, lo, hi, { padding: true }),
      },
      {
        hint: 'That is the sum over the completions: the loss is their mean, so divide by the number of completions.',
        wrong: (l: number[][], o: number[][], m: number[][], a: number[], lo: number, hi: number) => gspoWith(l, o, m, a, lo, hi, { mean: false }),
      },
      {
        hint: 'That clips each token’s ratio, as GRPO does: GSPO forms one ratio per completion, the exponential of the mean log-ratio, and clips that once.',
        wrong: (l: number[][], o: number[][], m: number[][], a: number[], lo: number, hi: number) =>
          l.reduce((sum, row, i) => {
            const n = realTokens(m)[i];
            const tokens = row.reduce((acc, lp, t) => {
              const r = Math.exp(lp - o[i][t]);
              return acc - m[i][t] * Math.min(r * a[i], Math.min(Math.max(r, 1 - lo), 1 + hi) * a[i]);
            }, 0);
            return sum + tokens / n;
          }, 0) / l.length,
      },
    ],
  },
] as const satisfies readonly Exercise[];

export function exerciseNamed(id: string): Exercise | undefined {
  return exercises.find((e) => e.id === id);
}
