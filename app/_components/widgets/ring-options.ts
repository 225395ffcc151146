// The ring all-reduce widget's choices, shared by its build-time check and the browser (a value imported from a
// 'use client' module is only a reference on the server).

export const WORKER_CHOICES = [2, 3, 4, 5, 6];
export const BUFFERS: { bytes: number; label: string }[] = [
  { bytes: 1e9, label: '1 GB' },
  { bytes: 2 * 596_049_920, label: 'Qwen3-0.6B gradients in bf16 (1.19 GB)' },
  { bytes: 2 * 8_030_261_248, label: 'Llama-3.1-8B gradients in bf16 (16.1 GB)' },
];

/** Worker i starts with (i + 1)·(c + 1) in chunk c: every chunk's sum is different, and easy to check. */
export const startValues = (n: number) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, c) => (i + 1) * (c + 1)));
