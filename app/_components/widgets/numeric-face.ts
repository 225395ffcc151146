// lib/rl's functions behind the async face, where tfjs may run: in the numeric worker, and in Node at build time.
import * as rl from '@/lib/rl';
import { errorMessage } from '@/lib/errors';
import { NUMERIC_FNS, type FromNumeric, type NumericFace, type ToNumeric } from './numeric-protocol';

export const directFace: NumericFace = {
  grpoAdvantages: async (args) => rl.grpoAdvantages(args),
  grpoLoss: async (args) => rl.grpoLoss(args),
  gae: async (args) => rl.gae(args),
  dpoLoss: async (args) => rl.dpoLoss(args),
};

/** One request answered: its result, or the error's message (for a malformed request too). Never throws. */
export async function answer(request: ToNumeric): Promise<FromNumeric> {
  const id = request?.id;
  try {
    if (!(NUMERIC_FNS as readonly unknown[]).includes(request?.fn)) throw new Error(`no numeric function ${JSON.stringify(request?.fn)}`);
    const call = directFace[request.fn] as (args: unknown) => Promise<unknown>;
    return { id, result: await call(request.args) };
  } catch (e) {
    return { id, error: errorMessage(e) };
  }
}
