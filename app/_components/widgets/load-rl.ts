// The chapter widgets' only way to reach tfjs in the browser: a dynamic import, made on the reader's
// first edit, so a chapter page never downloads tfjs (~230 KB gz) unless a widget is used.

/** The part of the numeric face (lib/rl/index.ts) the widgets call. A type only: importing it costs nothing. */
export type NumericFace = Pick<typeof import('@/lib/rl'), 'grpoAdvantages' | 'grpoLoss' | 'gae' | 'dpoLoss'>;

let loading: Promise<NumericFace> | null = null;

/** Loads tfjs on the CPU backend (these computations are tiny; no GPU warm-up), then the numeric face. Once per page. */
export function loadNumericFace(): Promise<NumericFace> {
  loading ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    await tf.setBackend('cpu');
    return import('@/lib/rl');
  })();
  // A failed download (offline) may be retried on the next edit.
  loading.catch(() => (loading = null));
  return loading;
}
