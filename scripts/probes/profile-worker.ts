// The Chromium side of kernel-profile.ts: the same profile in a worker (bundled by profile-worker.mjs).
import { readCheckpoint } from '@/labs/shell/checkpoints';
import { profileSteps } from './profile-steps';

self.onmessage = async (event: MessageEvent<{ trainer: string; overrides: Record<string, unknown>; steps: number; shapes: string[] }>) => {
  const { trainer, overrides, steps, shapes } = event.data;
  self.postMessage(await profileSteps(trainer, overrides, steps, readCheckpoint, shapes));
};
