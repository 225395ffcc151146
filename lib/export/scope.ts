/**
 * What an exported project holds for one run's settings, and what of the run it leaves out, with the reason: said
 * before anything is built. Each trainer's spec names its function here (lib/spec/registry.ts `export.scope`); the lab
 * shows it next to the "Export for TRL" button, and the project's README prints the same sentences (scopeSentences),
 * so the two cannot disagree. The per-field detail is the mapping table's (mapping.ts, self-improve.ts, vision.ts);
 * this is the run as a whole: its task, and any rule of its episodes TRL cannot express.
 *
 * Light on purpose: a lab page imports it with the registry, before the builders are loaded.
 */
import type { FieldValue } from '@/lib/train/config';
import type { ExportLab } from './types';

type Settings = Readonly<Record<string, FieldValue>>;

/** Something of the lab run the project does not carry, and why. */
export interface NotExported {
  /** A noun phrase: "the memory task". */
  what: string;
  /** Whether `what` takes "are" ("the lab's products"). */
  plural?: boolean;
  why: string;
}

export interface ExportScope {
  /** The project, in one sentence: what the download holds. */
  writes: string;
  /** What of this run is not exported, each with its reason. */
  notExported: readonly NotExported[];
}

export type ScopeOf = (settings: Settings) => ExportScope;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One sentence per thing left out: "The memory task is not exported: …". */
export const notExportedSentence = (n: NotExported) => `${capital(n.what)} ${n.plural ? 'are' : 'is'} not exported: ${n.why}`;

/** The statement as the dialog and the README print it: what the project holds, then each thing left out. */
export const scopeSentences = (scope: ExportScope): string[] => [scope.writes, ...scope.notExported.map(notExportedSentence)];

/** The README's section of the statement (every exported project's README has it). */
export const scopeMarkdown = (scope: ExportScope) => `## What this project exports, and what it does not

${scope.writes}
${scope.notExported.length ? `\n${scope.notExported.map((n) => `- ${notExportedSentence(n)}`).join('\n')}\n` : ''}`;

// ---- The GSM8K projects (sft, grpo, dpo, agent) ---------------------------------------------------------------

const GSM8K = 'These settings as a TRL project for Qwen3-0.6B on GSM8K';
const WORD_PROBLEMS = 'the project trains on GSM8K word problems, whose solutions end with "#### <number>" as the lab’s do.';

export const sftScope: ScopeOf = (s) => {
  const lora = s.use_peft === true ? ` with LoRA adapters of rank ${String(s.r)}${s.use_rslora === true ? ' (rsLoRA)' : ''}` : '';
  const notExported: NotExported[] = [{ what: `the lab’s ${String(s.dataset)} task`, why: WORD_PROBLEMS }];
  if (s.init_from !== 'base') notExported.push({ what: `the lab’s ${String(s.init_from)} checkpoint`, why: 'the project fine-tunes Qwen3-0.6B, a pretrained instruct model, from the start.' });
  // The LoRA lab's point is forgetting: the project has no old task to measure it on, nor to replay.
  if (s.init_from === 'addition_sft' && s.dataset !== 'addition') {
    notExported.push({ what: 'the measure of forgetting (accuracy on addition, the task the model knew before)', why: 'eval.py measures GSM8K accuracy only.' });
  }
  if ((s.replay_fraction as number) > 0) {
    notExported.push({ what: `replay of the old task (replay_fraction ${String(s.replay_fraction)})`, why: 'the project trains on GSM8K alone; the replay_fraction row of the settings table says how to mix an old task’s data in.' });
  }
  return { writes: `${GSM8K}: data, SFT with this run’s settings${lora}, evaluation, multi-GPU configs.`, notExported };
};

export const grpoScope: ScopeOf = (s) => {
  const notExported: NotExported[] = [{ what: 'the lab’s 2-digit additions', plural: true, why: `${WORD_PROBLEMS.replace(/\.$/, '')}; train_sft.py teaches Qwen3-0.6B that format before GRPO.` }];
  if (s.dynamic_sampling === true) {
    notExported.push({ what: 'DAPO’s dynamic sampling', why: 'TRL’s GRPOTrainer does not have it, so groups whose completions all score the same stay in the batch and give no gradient.' });
  }
  return { writes: `${GSM8K}: data, SFT, this GRPO run, evaluation, multi-GPU configs.`, notExported };
};

export const dpoScope: ScopeOf = () => ({
  writes: `${GSM8K}: data, SFT, (right, wrong) pairs sampled from the SFT model, this DPO run, evaluation, multi-GPU configs.`,
  notExported: [{ what: 'the lab’s 2-digit additions', plural: true, why: 'the project samples its pairs on GSM8K word problems, whose solutions end with "#### <number>" as the lab’s do.' }],
});

/**
 * Whether the agent run's episodes need more than tools=[calculator]: a second try, a calculator that fails by the
 * lab's seeded rule, or the memory tool. Then train_agent.py passes GRPOTrainer an environment (python/environment.ts,
 * which reads the same decision back from the constants mapping.ts writes).
 */
export const usesEnvironment = (s: Settings): boolean =>
  (s.answer_attempts as number) > 1 || (s.use_tools === true && (s.task === 'memory' || (s.tool_failure_rate as number) > 0));

export const agentScope: ScopeOf = (s) => {
  const tools = s.use_tools === true;
  const environmentTools = [tools ? 'calculator' : '', (s.answer_attempts as number) > 1 ? 'submit_answer' : '', tools && s.task === 'memory' ? 'remember and recall' : ''].filter(Boolean);
  const run = usesEnvironment(s)
    ? `this GRPO run with its episode rules in an environment (AgentEnvironment: ${environmentTools.join(', ')})`
    : tools
      ? 'this GRPO run with the calculator as a tool'
      : 'this GRPO run without tools';
  const notExported: NotExported[] = [];
  if (s.task === 'memory') {
    notExported.push({
      what: 'the memory task',
      why: `its facts, distractors and question, and the 12-token window that makes a memory necessary, have no counterpart in TRL, which keeps the whole conversation in the model’s context (only a rollout_func that owns generation could drop turns). The project trains on GSM8K word problems ${tools ? 'with the memory tool (remember and recall) beside the calculator; nothing there forces the model to use it.' : 'without tools.'}`,
    });
  } else {
    const task = s.task === 'two_step' ? 'two-step problems (two calls, the second using the first’s result)' : 'products (one call each)';
    notExported.push({ what: `the lab’s ${task}`, plural: true, why: 'the project trains on GSM8K word problems, which take several calculations each.' });
  }
  if (s.train_on_tool_results === true) {
    notExported.push({ what: 'the masking bug (training on the calculator’s tokens)', why: 'TRL’s GRPOTrainer always masks tool results out of the loss, so the bug cannot be reproduced there.' });
  }
  if ((s.answer_attempts as number) > 1) {
    notExported.push({ what: 'the lab’s answer at the end of a turn', why: 'TRL continues a rollout only after a tool call, so here an answer is a submit_answer call; train_sft.py does not demonstrate it, and eval.py scores one try.' });
  }
  if (tools && (s.answer_attempts as number) > 1 && s.tool_after_verdict === true) {
    notExported.push({
      what: 'the lab’s silent calculator before the verdict, and the checkpoint whose second tries sometimes call',
      why: 'TRL answers every tool call, so the exported calculator replies with an error until an answer was told "?" (TOOL_AFTER_VERDICT), where the lab’s stays silent; the project starts from its own SFT, which does not demonstrate a call after "?".',
    });
  }
  if (tools && (s.tool_failure_rate as number) > 0) {
    notExported.push({ what: 'the lab’s calculator failures drawn per generation batch', plural: true, why: 'an environment is not told its batch, so each counts its own episodes; eval.py draws failures with random.random().' });
  }
  return { writes: `${GSM8K}: data, SFT, ${run}, evaluation, multi-GPU configs.`, notExported };
};

// ---- The self-improvement and vision projects ------------------------------------------------------------------

const KEPT: Record<string, string> = {
  verifier: 'keeping what the verifier accepts',
  majority: 'keeping the answers most of a problem’s samples agree on (no verifier)',
  none: 'keeping every finished sample (no filter)',
};

export const selfImproveScope: ScopeOf = (s) => ({
  writes: `These settings as a TRL project for Qwen3-0.6B on GSM8K: rounds of sampling, ${KEPT[String(s.filter)] ?? `the ${String(s.filter)} filter`}, SFTTrainer on ${s.demo_fraction === 1 ? 'the demonstrations alone (the sft_only control)' : 'the kept samples mixed with demonstrations'}, evaluation at every difficulty.`,
  notExported: [
    {
      what: 'the lab’s sums graded by how many digit columns they span',
      plural: true,
      why: 'GSM8K problems, graded by how many steps their reference solution takes, stand in for them (the short ones are the demonstrations, the longest the target).',
    },
    ...(s.init_from === 'base'
      ? []
      : [{ what: 'the lab’s round-0 checkpoint', why: 'the project trains round 0 itself, one pass of SFT on the short problems’ solutions from Qwen3-0.6B, a pretrained instruct model.' }]),
  ],
});

export const visionScope: ScopeOf = (s) => ({
  writes: `These settings as a TRL project for the vision-language model Qwen2.5-VL-3B-Instruct on the lab’s own pictures: data, SFT, this run${s.use_image === false ? ' (the text_only floor: the questions without the pictures)' : ''}, evaluation, multi-GPU configs.`,
  notExported: [
    {
      what: 'the lab’s evaluation during training',
      why: `TRL’s would sample num_generations answers per picture and report rewards, so eval.py measures the lab’s held-out accuracy after SFT and after GRPO instead of every ${String(s.eval_steps)} steps.`,
    },
  ],
});

/** The scope of a run of `lab`, for its README: the spec's, which every exported trainer has. */
export function scopeOfRun(lab: ExportLab, settings: Settings): ExportScope {
  if (!lab.scope) throw new Error(`${lab.trainer} has no export scope: its spec refuses the export`);
  return lab.scope(settings);
}
