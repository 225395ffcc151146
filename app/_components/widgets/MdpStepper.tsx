import { createAgentLabTask } from '@/lib/train/lab-setup';
import { Island } from '../islands/Island';
import { createMdpEngine, problemChoices } from './mdp-episode';
import { labRules } from './mdp-rules';
import './widgets.css';
import './widgets-mdp.css';

/**
 * One episode of the agent lab's calculator environment, token by token, as an MDP. The HTML holds the initial
 * state (the prompt, t = 0) and says what Step does; the policy (tfjs in a Web Worker) loads on the first Step.
 */
export function MdpStepper() {
  const problems = problemChoices(createAgentLabTask());
  const rules = labRules();
  const engine = createMdpEngine(rules);
  const initialView = engine.view(engine.start(problems[0].value, 0).episode);
  return <Island name="MdpStepper" props={{ problems, rules, initialView }} />;
}
