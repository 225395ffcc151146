/**
 * The self-improvement lab's model: the lab's shape (lib/models/presets.ts), sized for the longest sum of its
 * curriculum from the start, so every later round's problems fit the positions it already has. tfjs-free: the grader
 * checks a file against it before loading anything.
 */
import type { TinyLMConfig } from '@/lib/models/config';
import { configForTask } from '@/lib/models/presets';
import { createAdditionCurriculum } from '@/lib/tasks/addition-curriculum';

export function selfImproveModelConfig(targetDigits: number): TinyLMConfig {
  return configForTask(createAdditionCurriculum({ width: targetDigits }).at(1));
}
