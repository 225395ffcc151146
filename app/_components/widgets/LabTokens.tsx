import type { TokenRole } from '@/lib/agentdata';

/** A space made visible; every other token as is. */
const showToken = (t: string) => (t === ' ' ? '␣' : t);

interface Props {
  tokens: string[];
  mask: (0 | 1)[];
  roles: TokenRole[];
}

const ROLE_NOTE: Record<TokenRole, string> = {
  prompt: 'prompt: context, not trained on',
  policy: 'policy: trained on',
  observation: 'tool result: not trained on',
};

/**
 * One cell per token with its mask digit beneath. Mask 0 is marked three ways besides colour: the digit, a
 * dashed border, and (for tool results) a strike-through; the legend and the two text lines say the same in words.
 */
export function LabTokens({ tokens, mask, roles }: Props) {
  const trained = tokens.filter((_, i) => mask[i] === 1).join('');
  const prompt = tokens.filter((_, i) => roles[i] === 'prompt').join('');
  const observations = tokens.filter((_, i) => roles[i] === 'observation').join('');
  const count = (r: TokenRole) => roles.filter((x) => x === r).length;
  return (
    <figure className="tv-tokens-figure" data-testid="lab-tokens">
      <figcaption>
        The lab&apos;s tokens and loss mask: {tokens.length} tokens, {count('policy')} trained on (mask 1), {count('prompt')} prompt and{' '}
        {count('observation')} tool-result tokens not trained on (mask 0).
      </figcaption>
      <ul className="tv-legend" aria-label="Legend">
        <li>
          <span className="tok tok-policy tv-swatch" aria-hidden="true"><span className="tok-text">7</span><span className="tok-mask">1</span></span> trained on
          (mask 1): the model&apos;s own tokens
        </li>
        <li>
          <span className="tok tok-prompt tv-swatch" aria-hidden="true"><span className="tok-text">7</span><span className="tok-mask">0</span></span> not trained
          on (mask 0): the prompt
        </li>
        <li>
          <span className="tok tok-observation tv-swatch" aria-hidden="true"><s className="tok-text">7</s><span className="tok-mask">0</span></span> not trained
          on (mask 0): a tool result, struck through
        </li>
      </ul>
      <ol className="tv-tokens" aria-label="Tokens, each with its mask digit">
        {tokens.map((t, i) => (
          <li key={i} className={`tok tok-${roles[i]}`} data-mask={mask[i]} data-role={roles[i]} title={ROLE_NOTE[roles[i]]}>
            {roles[i] === 'observation' ? <s className="tok-text">{showToken(t)}</s> : <span className="tok-text">{showToken(t)}</span>}
            <span className="tok-mask">{mask[i]}</span>
          </li>
        ))}
      </ol>
      <dl className="tv-streams">
        <dt>Trained on (mask 1)</dt>
        <dd><code data-testid="trained-text">{trained}</code></dd>
        <dt>Not trained on (mask 0)</dt>
        <dd>
          <code data-testid="prompt-text">{prompt}</code> (prompt) and <code data-testid="observation-text">{observations}</code> (tool results)
        </dd>
      </dl>
    </figure>
  );
}
