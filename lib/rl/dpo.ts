// DPO (TRL DPOTrainer.dpo_loss) on sequence log-prob sums.
import * as tf from '@tensorflow/tfjs';

import { DPO_LOSS_TYPES, type DpoLossType } from './choices';

export { DPO_LOSS_TYPES, type DpoLossType };

export interface DpoLossArgs {
  /** [B] Σ_t log π_θ(chosen tokens). */
  chosenLogps: tf.Tensor1D;
  rejectedLogps: tf.Tensor1D;
  /** [B] the same sums under the frozen reference model. */
  refChosenLogps: tf.Tensor1D;
  refRejectedLogps: tf.Tensor1D;
  beta?: number;
  lossType?: DpoLossType;
  /** Conservative DPO ('sigmoid') / robust DPO ('robust'): assumed share of flipped labels. */
  labelSmoothing?: number;
  /** [B] completion lengths; IPO averages log-probs per token (policy and reference alike). */
  chosenLengths?: tf.Tensor1D;
  rejectedLengths?: tf.Tensor1D;
}

export type DpoLossOut = {
  /** Batch mean of `losses`. */
  loss: tf.Scalar;
  losses: tf.Tensor1D;
  /** β · (policy − reference) log-prob of each chosen / rejected completion, [B]. */
  chosenRewards: tf.Tensor1D;
  rejectedRewards: tf.Tensor1D;
  metrics: {
    'rewards/chosen': tf.Scalar;
    'rewards/rejected': tf.Scalar;
    'rewards/accuracies': tf.Scalar;
    'rewards/margins': tf.Scalar;
  };
};

/** Resolved DPO hyper-parameters with TRL's defaults (β 0.1, sigmoid, no smoothing), validated. */
export function dpoConfig(a: { beta?: number; lossType?: DpoLossType; labelSmoothing?: number }) {
  const beta = a.beta ?? 0.1;
  const lossType = a.lossType ?? 'sigmoid';
  const labelSmoothing = a.labelSmoothing ?? 0;
  if (!(DPO_LOSS_TYPES as readonly string[]).includes(lossType)) {
    throw new Error(`unknown lossType '${lossType}' (expected ${DPO_LOSS_TYPES.join(', ')})`);
  }
  if (!(beta > 0) || !Number.isFinite(beta)) throw new Error(`beta must be a finite number > 0, got ${beta}`);
  // robust divides by 1 − 2ε, so ε = 0.5 is excluded there.
  const maxLs = lossType === 'robust' ? 0.5 : 0.5 + Number.EPSILON;
  if (!(labelSmoothing >= 0 && labelSmoothing < maxLs)) {
    throw new Error(`labelSmoothing must be in [0, 0.5${lossType === 'robust' ? ')' : ']'}, got ${labelSmoothing}`);
  }
  return { beta, lossType, labelSmoothing };
}

/**
 * log σ(z) = −softplus(−z). Not tf.logSigmoid: its customGrad re-reads an input it did not save, so
 * its gradient throws ("reading 'backend'") when that input is an intermediate a tidy already freed.
 */
const logSigmoid = (z: tf.Tensor): tf.Tensor => tf.neg(tf.softplus(tf.neg(z)));

/** TRL's dpo_loss, batch-averaged. As with grpoLoss, tf.keep() metrics you read inside minimize(). */
export function dpoLoss(args: DpoLossArgs): DpoLossOut {
  const { beta, lossType, labelSmoothing: ls } = dpoConfig(args);
  const B = args.chosenLogps.shape[0];
  const named = {
    chosenLogps: args.chosenLogps,
    rejectedLogps: args.rejectedLogps,
    refChosenLogps: args.refChosenLogps,
    refRejectedLogps: args.refRejectedLogps,
    chosenLengths: args.chosenLengths,
    rejectedLengths: args.rejectedLengths,
  };
  for (const [k, t] of Object.entries(named)) {
    if (t && (t.rank !== 1 || t.shape[0] !== B)) throw new Error(`${k} must be [${B}], got [${t.shape}]`);
  }
  if (lossType === 'ipo' && (!args.chosenLengths || !args.rejectedLengths)) {
    throw new Error("lossType 'ipo' needs chosenLengths and rejectedLengths (it averages log-probs per token)");
  }
  return tf.tidy(() => {
    const { chosenLogps, rejectedLogps, refChosenLogps, refRejectedLogps } = args;
    let [pc, pr, rc, rr]: tf.Tensor[] = [chosenLogps, rejectedLogps, refChosenLogps, refRejectedLogps];
    if (lossType === 'ipo') {
      const lc = args.chosenLengths as tf.Tensor1D;
      const lr = args.rejectedLengths as tf.Tensor1D;
      [pc, rc, pr, rr] = [tf.div(pc, lc), tf.div(rc, lc), tf.div(pr, lr), tf.div(rr, lr)];
    }
    const chosenLogratio = tf.sub(pc, rc); // [B]
    const rejectedLogratio = tf.sub(pr, rr);
    const logits = tf.sub(chosenLogratio, rejectedLogratio); // (π_c − π_r) − (ref_c − ref_r)
    const z = tf.mul(logits, beta);
    let losses: tf.Tensor;
    if (lossType === 'sigmoid') {
      losses = tf.sub(tf.mul(logSigmoid(z), -(1 - ls)), tf.mul(logSigmoid(tf.neg(z)), ls));
    } else if (lossType === 'robust') {
      const num = tf.add(tf.mul(logSigmoid(z), -(1 - ls)), tf.mul(logSigmoid(tf.neg(z)), ls));
      losses = tf.div(num, 1 - 2 * ls);
    } else if (lossType === 'hinge') {
      losses = tf.relu(tf.sub(1, z));
    } else {
      losses = tf.square(tf.sub(logits, 1 / (2 * beta))); // IPO eq. 17, β plays τ
    }
    const chosenRewards = tf.mul(chosenLogratio, beta) as tf.Tensor1D;
    const rejectedRewards = tf.mul(rejectedLogratio, beta) as tf.Tensor1D;
    return {
      loss: tf.mean(losses) as tf.Scalar,
      losses: losses as tf.Tensor1D,
      chosenRewards,
      rejectedRewards,
      metrics: {
        'rewards/chosen': tf.mean(chosenRewards) as tf.Scalar,
        'rewards/rejected': tf.mean(rejectedRewards) as tf.Scalar,
        'rewards/accuracies': tf.mean(tf.cast(tf.greater(chosenRewards, rejectedRewards), 'float32')) as tf.Scalar,
        'rewards/margins': tf.mean(tf.sub(chosenRewards, rejectedRewards)) as tf.Scalar,
      },
    };
  });
}
