import { initialInputs, type LoraCalculatorProps } from './lora-calculator';
import { Island } from '../islands/Island';
import './widgets.css';
import './widgets-ppo-dpo.css';
import './widgets-lora.css';

/**
 * Trainable parameters and training memory of a LoRA adapter on a real model. Plain arithmetic (lib/lora),
 * no tfjs: the page's HTML already holds the default table, and the browser recomputes on every edit.
 */
export function LoraCalculator(props: LoraCalculatorProps) {
  let inputs;
  try {
    inputs = initialInputs(props);
  } catch (e) {
    throw new Error(`<LoraCalculator>: ${(e as Error).message}`);
  }
  return <Island name="LoraCalculator" props={{ initialInputs: inputs }} />;
}
