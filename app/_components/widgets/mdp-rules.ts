import { agentSchema } from '@/lib/train/agent-config';
import { AGENT_MAX_COMPLETION } from '@/lib/train/lab-setup';
import type { MdpRules } from './mdp-episode';

/** The MDP stepper's rules, the agent lab's defaults: read on the server, handed to the page as a prop. */
export function labRules(): MdpRules {
  return {
    maxCalls: agentSchema.max_tool_calling_iterations.default,
    maxCompletion: AGENT_MAX_COMPLETION,
    weights: { correctness: agentSchema.reward_weight_correctness.default, format: agentSchema.reward_weight_format.default },
  };
}
