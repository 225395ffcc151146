/** Whether a TinyLM's config, as a weights file's header states it, is the one a lab builds. No tfjs. */
import { ARCH_FIELDS, resolveConfig, sameLora, type TinyLMConfig } from '@/lib/models/config';

/**
 * The first field in which `found` (read from a file) differs from the lab's `expected` model, as one sentence
 * starting with `label` (e.g. "receiver."), or null when every field that fixes a weight's shape or the forward
 * pass agrees: the sizes, the value head, the attention window and the LoRA adapters.
 */
export function lmArchitectureProblem(label: string, found: TinyLMConfig, expected: TinyLMConfig): string | null {
  const [a, b] = [resolveConfig(found), resolveConfig(expected)];
  for (const key of [...ARCH_FIELDS, 'value_head', 'sliding_window'] as const) {
    if (a[key] !== b[key]) return `${label}${key} is ${a[key]} in the weights but ${b[key]} in the lab's model`;
  }
  if (!sameLora(a.lora, b.lora)) return `${label}lora is ${JSON.stringify(a.lora)} in the weights but ${JSON.stringify(b.lora)} in the lab's model`;
  return null;
}
