// LoRA bookkeeping (PEFT conventions): W x + s · B A x with A [r, in], B [out, r].

function checkPositiveInt(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
}

/** s = α / r, or α / √r with rsLoRA (keeps the update's scale stable as r grows). */
export function loraScaling(loraAlpha: number, r: number, useRslora = false): number {
  checkPositiveInt('r', r);
  if (!(loraAlpha > 0) || !Number.isFinite(loraAlpha)) {
    throw new Error(`loraAlpha must be a finite number > 0, got ${loraAlpha}`);
  }
  return useRslora ? loraAlpha / Math.sqrt(r) : loraAlpha / r;
}

/** r · (in + out) for A and B, plus out for lora_B's bias when PEFT's `lora_bias` is on. */
export function loraTrainableParams(inFeatures: number, outFeatures: number, r: number, loraBias = false): number {
  checkPositiveInt('inFeatures', inFeatures);
  checkPositiveInt('outFeatures', outFeatures);
  checkPositiveInt('r', r);
  return r * (inFeatures + outFeatures) + (loraBias ? outFeatures : 0);
}
