/**
 * Grading the vision lab: a submission is one 'vision-lm' checkpoint (the patch encoder and its TinyLM, as the
 * vision trainer saves a run). Its header and tensor table must describe exactly the model the trainer builds for the
 * config's pictures; its held-out metrics are the trainer's own evaluation (evaluateVisionAnswers), run on the frozen
 * weights with the config's questions, grid and use_image.
 */
import { assignWeights } from '@/lib/models/checkpoint';
import { checkVisionLMHeader } from '@/lib/models/shapes';
import { createVisionLM } from '@/lib/models/vision-lm';
import { decodeWeightsFile, WeightsFileError } from '@/lib/models/weights-file';
import { inTensorScope } from '../scope';
import { evaluateVisionAnswers, resolveVisionConfig, visionModelConfig, visionTaskFor } from '../vision-trainer';
import { problemsOf } from './eval-problems';
import { lmArchitectureProblem } from './lm-architecture';
import type { Grading } from './types';

const ENCODER_FIELDS = ['patch_size', 'num_channels', 'patch_grid', 'd_model'] as const;

export const visionGrading: Grading = {
  weightsProblem(config, file) {
    try {
      if (file.kind !== 'vision-lm') return `the weights are a '${file.kind}' model; vision trains a 'vision-lm'`;
      const header = checkVisionLMHeader(file.config, file.tensors); // bounded, and the table fits the header
      const expected = visionModelConfig(visionTaskFor(resolveVisionConfig(config)));
      for (const key of ENCODER_FIELDS) {
        if (header.encoder[key] !== expected.encoder[key]) return `encoder.${key} is ${header.encoder[key]} in the weights but ${expected.encoder[key]} in the lab's model`;
      }
      return lmArchitectureProblem('lm.', header.lm, expected.lm);
    } catch (error) {
      return (error as Error).message;
    }
  },

  async evaluate(bytes, config, set) {
    const file = decodeWeightsFile(bytes);
    const problem = visionGrading.weightsProblem(config, file);
    if (problem) throw new WeightsFileError(problem);
    const c = resolveVisionConfig(config);
    const task = visionTaskFor(c);
    // Built from the lab's config, which the check above found equal to the file's in every field that matters.
    const model = createVisionLM(visionModelConfig(task), 0, { frozen: true });
    try {
      assignWeights(model, file);
      return await inTensorScope(() => evaluateVisionAnswers(model, task, problemsOf(task, set, c.eval_samples), c.use_image));
    } finally {
      model.dispose();
    }
  },
};
