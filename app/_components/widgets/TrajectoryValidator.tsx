import { pretty, TWO_CALL_TRAJECTORY } from '@/lib/agentdata/examples';
import { Island } from '../islands/Island';
import { exampleChoices, runValidator } from './trajectory';
import './widgets.css';
import './widgets-agentdata.css';

/**
 * A textarea of chat-format trajectories, checked on demand, with the lab's tokens and loss mask for a valid
 * calculator trajectory. The default result is computed here, at build time, so it is in the page's HTML;
 * the browser fetches the validator itself (no tfjs anywhere) on the reader's first Validate.
 */
export function TrajectoryValidator() {
  const text = pretty(TWO_CALL_TRAJECTORY);
  const view = runValidator(text);
  if (!view.ok || !view.episode?.ok) throw new Error('<TrajectoryValidator>: the default trajectory must validate and convert');
  return <Island name="TrajectoryValidator" props={{ initialText: text, initialView: view, examples: exampleChoices() }} />;
}
