/**
 * The vision trainer's inspector: what the lab draws for the latest step (the contract between the vision core and
 * the vision lab UI, issue 35). Types only; the trainer fills them, the lab reads them. Extend, never rename.
 */

// A scene is the task's description of a picture, so its types live with the task (lib/tasks/vision.ts), which sits
// below the trainers and may not import from here. Re-exported: the lab still reads the whole contract from this file.
import type { VisionScene } from '@/lib/tasks/vision';
import type { StepTokenTerms } from './token-terms';

export type { VisionColour, VisionScene, VisionShape } from '@/lib/tasks/vision';

export interface VisionAnswer { completion: string; reward: number; correct: boolean }
export interface VisionGroupSample {
  scene: VisionScene | null;        // null under text_only (the policy saw no picture)
  question: string;                 // e.g. "how many red?"
  truth: string;                    // the verified answer, e.g. "3"
  answers: VisionAnswer[];          // the group's num_generations sampled answers
  /** For answers[0]: attention of its first answer token over the image patches (row-major patch grid), heads and last layer averaged, sums to ≤ 1 (the rest went to the text); null under text_only. */
  attention: number[] | null;
  /** Patches per side (attention.length = patchGrid²). */
  patchGrid: number;
}
export interface VisionInspector {
  phase: 'sft' | 'grpo';
  groups: VisionGroupSample[];      // the latest step's groups (a few, not hundreds)
  /** GRPO steps: a few answers of the step's slice token by token (lib/train/token-terms.ts); null in the SFT phase. */
  tokenView?: { terms: StepTokenTerms; questions: string[]; tokens: string[][] } | null;
}
