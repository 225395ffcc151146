/**
 * Grading the team lab: a submission carries both policies in one 'team' checkpoint, every weight named after its
 * role ("sender.…", "receiver.…"), as the team trainer saves a run (teamModels). Each role's header and tensors must
 * describe exactly the model the trainer builds for it; the held-out metrics are the trainer's own evaluation
 * (evaluateTeam) of the two frozen roles playing together, under the config's channel (max_message_length,
 * blank_channel).
 */
import { assignWeights } from '@/lib/models/checkpoint';
import type { TinyLMConfig } from '@/lib/models/config';
import { checkTinyLMHeader } from '@/lib/models/shapes';
import { createTinyLM } from '@/lib/models/tiny-lm';
import { decodeWeightsFile, WeightsFileError } from '@/lib/models/weights-file';
import { createTeamTask, type TeamTask } from '@/lib/tasks/team';
import { inTensorScope } from '../scope';
import { TEAM_MAX_MESSAGE_LENGTH } from '../team-config';
import { evaluateTeam, receiverModelConfig, resolveTeamConfig, senderModelConfig, teamModels } from '../team-trainer';
import { problemsOf } from './eval-problems';
import { lmArchitectureProblem } from './lm-architecture';
import type { Grading } from './types';

const ROLES = ['sender', 'receiver'] as const;
const roleConfig = (task: TeamTask): Record<(typeof ROLES)[number], TinyLMConfig> => ({ sender: senderModelConfig(task), receiver: receiverModelConfig(task) });

export const teamGrading: Grading = {
  weightsProblem(config, file) {
    try {
      if (file.kind !== 'team') return `the weights are a '${file.kind}' model; team trains a 'team' (a sender and a receiver in one file)`;
      resolveTeamConfig(config); // a config the trainer refuses fits no weights
      const expected = roleConfig(createTeamTask());
      const stray = file.tensors.find((t) => !ROLES.some((role) => t.name.startsWith(`${role}.`)));
      if (stray) return `the file has a tensor '${stray.name}' that belongs to neither the sender nor the receiver`;
      for (const role of ROLES) {
        const stated = (file.config as Record<string, unknown>)[role];
        if (stated == null) return `the weights hold no ${role}: a team file carries both roles`;
        const table = file.tensors.filter((t) => t.name.startsWith(`${role}.`)).map((t) => ({ name: t.name.slice(role.length + 1), shape: t.shape }));
        let header: TinyLMConfig;
        try {
          header = checkTinyLMHeader(stated, table); // bounded, and the role's tensors fit its header
        } catch (error) {
          return `${role}: ${(error as Error).message}`;
        }
        const problem = lmArchitectureProblem(`${role}.`, header, expected[role]);
        if (problem) return problem;
      }
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  },

  async evaluate(bytes, config, set) {
    const file = decodeWeightsFile(bytes);
    const problem = teamGrading.weightsProblem(config, file);
    if (problem) throw new WeightsFileError(problem);
    const c = resolveTeamConfig(config);
    const task = createTeamTask();
    // Built from the lab's configs, which the check above found equal to the file's in every field that matters.
    const expected = roleConfig(task);
    const models = teamModels(createTinyLM(expected.sender, 0, { frozen: true }), createTinyLM(expected.receiver, 0, { frozen: true }));
    try {
      assignWeights(models, file);
      return await inTensorScope(() => evaluateTeam(models, task, c, problemsOf(task, set, c.eval_samples)));
    } finally {
      models.dispose();
    }
  },
};
