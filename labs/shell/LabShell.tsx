'use client';

import { useEffect, useMemo, useState } from 'react';
import { progressActions } from '@/ui/useProgress';
import { ownEntry, presetSettings, type FieldValue } from '@/lib/train/config';
import { TRAINERS, trainerSettings, type TrainerName } from '@/lib/spec/registry';
import { perStudentSeeds, studentSeed } from '@/lib/teach/seeds';
import { handInPrediction } from '@/lib/teach/prediction';
import { presetUnderAssignment } from './assignment';
import { ActionsPanel } from './ActionsPanel';
import { AssignmentBanner } from './AssignmentBanner';
import { ComparePanel } from './ComparePanel';
import { comparisonPlan } from './comparison';
import { DatasetPanel } from './DatasetPanel';
import { ExportForTrl } from './ExportForTrl';
import type { LabComparison, LabDefinition } from './labDefinition';
import { LabStatus } from './LabStatus';
import { LabToolbar } from './LabToolbar';
import { PredictionPanel } from './PredictionPanel';
import { chartsInView } from './chartsInView';
import { MetricChart } from './MetricChart';
import { RewardPanel } from './RewardPanel';
import { labelRuns } from './runLabels';
import { RunsPanel } from './RunsPanel';
import { SettingsForm } from '@/ui/SettingsForm';
import { useTellPreset } from '@/ui/labPreset';
import { SweepPanel } from './SweepPanel';
import { useAssignment } from './useAssignment';
import { useLabRuns } from './useLabRuns';
import { useLabWorker } from './useLabWorker';
import { useLinkedSettings, type BackendChoice } from './useLinkedSettings';
import { useReaderExtras } from './useReaderExtras';
import { useSavedRuns } from './useSavedRuns';

export type { LabDefinition } from './labDefinition';

const NO_COMPARISONS: readonly LabComparison[] = [];

/** Every lab's shell: settings named as TRL's config, training in a worker, live charts, an inspector, runs. */
export function LabShell<N extends TrainerName>({ lab: definition }: { lab: LabDefinition<N> }) {
  const { trainer, fields, charts, inspector, evalMetric } = definition;
  const { schema, presets: allPresets } = trainerSettings(trainer);
  const offered = definition.presets;
  const presets = useMemo(() => (offered ? Object.fromEntries(offered.map((name) => [name, allPresets[name]])) : allPresets), [offered, allPresets]);
  const firstPreset = definition.presets?.[0] ?? 'default';
  const { accepts } = TRAINERS[trainer];
  const lab = useLabWorker(trainer);
  const assignment = useAssignment(trainer);
  const [notices, setNotices] = useState<string[]>([]);
  const extras = useReaderExtras(trainer, Boolean(assignment.assignment), setNotices);
  const linked = useLinkedSettings(schema, presets, firstPreset, assignment, setNotices);
  const { settings, setSettings, preset, setPreset, backendChoice, setBackendChoice, settled } = linked;
  useTellPreset(preset); // the lab's page shows the chosen preset's title, summary and chapter
  const savedRuns = useSavedRuns(trainer, schema, setNotices);
  // Under an assignment no comparison is offered: its presets would change the settings the instructor locked.
  const comparisons = assignment.assignment ? NO_COMPARISONS : (definition.comparisons ?? NO_COMPARISONS);
  // A run trained to its last step counts on the learning path (/path/), with its preset; a sweep's or a comparison's
  // runs count too, each with its own.
  const runs = useLabRuns({
    trainer, schema, presets, lab, linked, savedRuns, comparisons, prepareExtras: extras.prepare,
    onFinished: (finished) => progressActions().finishLab(definition.slug, finished),
  });
  const { sweep, queue } = runs;
  const { status } = lab;
  const [evalName] = evalMetric;

  // Under per-student seeds the run's seed follows the student id typed in the banner (again after a preset resets it).
  const [student, setStudent] = useState('');
  const ownSeed = assignment.assignment && perStudentSeeds(assignment.assignment) && student.trim() ? studentSeed(assignment.assignment.id, student) : null;
  // The predictions fixed when the current run started: under an assignment that asks one, the hand-in records it.
  const [runPicks, setRunPicks] = useState<Record<string, string>>({});
  const askedClaim = assignment.assignment?.prediction;
  const handedInPrediction = askedClaim === undefined ? undefined : handInPrediction(askedClaim, runPicks);
  useEffect(() => {
    if (ownSeed !== null && settings.seed !== ownSeed) setSettings((s) => ({ ...s, seed: ownSeed }));
  }, [ownSeed, settings.seed, setSettings]);

  // Changes apply to the next fresh run, never to the current one (the rules: runMachine.ts).
  const change = (key: string, value: FieldValue) => {
    if (assignment.locked.has(key)) return; // its control is disabled; a locked field never changes
    setSettings((s) => ({ ...s, [key]: value }));
  };
  const choosePreset = (name: string) => {
    const assigned = assignment.assignment ? presetUnderAssignment(assignment.assignment, schema, presets, name) : null;
    if (assigned && 'refusal' in assigned) return setNotices([assigned.refusal]);
    setPreset(name);
    setSettings(assigned?.settings ?? presetSettings(schema, ownEntry(presets, name)));
  };
  // A new backend needs a new worker: the current run goes to the charts first.
  const chooseBackend = (choice: BackendChoice) =>
    runs.changeBackend(() => {
      setBackendChoice(choice);
      lab.restart();
    });


  // What each comparison's button will run, in words: recomputed when the form changes, not on every chart redraw.
  const comparisonPlans = useMemo(
    () => comparisons.map((c) => comparisonPlan(schema, presets, c, { preset, settings }, definition.stepWord)),
    [comparisons, schema, presets, preset, settings, definition.stepWord],
  );

  // The reader's reward function goes into the export when the lab trains with it (not under an assignment).
  const { customReward } = extras;
  const exportedReward = useMemo(
    () => (accepts.reward && customReward.enabled && !assignment.assignment ? { source: customReward.source, weight: customReward.weight } : undefined),
    [accepts.reward, customReward.enabled, customReward.source, customReward.weight, assignment.assignment],
  );

  const live = status.state === 'running' || status.state === 'paused' ? status.state : undefined;
  const current = { ...runs.run, history: status.history, live };
  const chartRuns = labelRuns(schema, [...savedRuns.saved, ...(status.history.length ? [current] : [])], definition.stepWord, definition.stepAxis !== undefined);
  // While a run trains, starts or a sweep goes on, what the next run takes (reward, data, a sweep) stays as it is.
  const busy = runs.starting || Boolean(sweep?.running) || status.state === 'running';

  return (
    <div className="lab" data-boot-pending={settled ? undefined : ''}>
      <AssignmentBanner
        view={assignment}
        trainer={trainer}
        run={{ state: status.state, backend: status.backend, settings: runs.run.settings, history: status.history }}
        requestWeights={lab.weights}
        student={student}
        onStudentChange={setStudent}
        prediction={handedInPrediction}
      />
      <PredictionPanel
        trainer={trainer}
        lab={definition.slug}
        formPreset={preset}
        run={{ preset: runs.run.preset, settings: runs.run.settings, state: status.state, history: status.history }}
        schema={schema}
        presets={presets}
        assigned={askedClaim}
        onCommit={setRunPicks}
      />
      <LabToolbar
        state={status.state}
        hasRun={runs.hasRun}
        resumes={runs.resumes}
        held={runs.starting || Boolean(sweep?.running)}
        preset={preset}
        presetNames={Object.keys(presets)}
        backendChoice={backendChoice}
        onTrain={runs.train}
        onPause={runs.pause}
        onReset={runs.reset}
        onPreset={choosePreset}
        onBackend={chooseBackend}
      />
      <LabStatus status={status} evalMetric={evalMetric} stepWord={definition.stepWord} countDone={definition.stepAxis !== undefined} nextTotal={Number(settings.max_steps)} />
      {runs.nextRun ? <p className="lab-notice lab-next-run">{runs.nextRun}</p> : null}
      {notices.map((n) => (
        <p key={n} className="lab-notice">
          {n}
        </p>
      ))}
      <p className="lab-preset-note">{ownEntry(presets, preset)?.description}</p>

      <div className="lab-charts">
        {chartsInView(charts, settings, chartRuns).map((spec) => (
          <MetricChart key={spec.title} spec={spec} runs={chartRuns} />
        ))}
      </div>

      <section className="lab-section" aria-label={inspector.title}>
        <h3>{inspector.title}</h3>
        {inspector.render(status.samples, runs.run.settings)}
      </section>

      {definition.actions?.length ? <ActionsPanel actions={definition.actions} results={status.actions} state={status.state} onAction={lab.action} /> : null}

      {accepts.reward ? (
        <RewardPanel reward={extras.customReward} disabled={busy || Boolean(assignment.assignment)} note={assignment.assignment ? 'An assignment trains with its lab’s own rewards: your function is not used here.' : undefined} />
      ) : null}
      {accepts.dataset ? (
        <DatasetPanel
          kind={accepts.dataset}
          loaded={extras.dataset}
          sampledCompletion={'max_completion_length' in TRAINERS[trainer].schema ? Number(settings.max_completion_length) : undefined}
          disabled={busy || Boolean(assignment.assignment)}
          note={assignment.assignment ? 'An assignment trains on its lab’s own data: a file is not used here.' : undefined}
          onLoad={(next) => {
            extras.setDataset(next);
            runs.noteExtrasChanged();
          }}
        />
      ) : null}
      {assignment.assignment ? null : (
        <SweepPanel
          schema={schema}
          fields={fields}
          settings={settings}
          metric={evalName}
          sweep={sweep}
          currentStep={status.history.filter((l) => l.kind === 'train').length}
          disabled={busy || queue.length > 0}
          chartsInUse={runs.chartsInUse}
          onStart={runs.startSweep}
          onStop={runs.stopSweep}
        />
      )}

      {comparisons.length ? (
        <ComparePanel
          comparisons={comparisons}
          plans={comparisonPlans}
          compared={runs.compared}
          queue={queue}
          busy={busy}
          runs={chartRuns}
          chartsInUse={runs.chartsInUse}
          onStart={runs.startComparison}
        />
      ) : null}

      <RunsPanel canExport={runs.canExport} canClear={savedRuns.saved.length > 0} onExport={runs.exportCurrent} onImport={savedRuns.importFile} onClear={savedRuns.clear} />

      <ExportForTrl trainer={trainer} settings={settings} preset={preset} customReward={exportedReward} />

      <details className="lab-section lab-settings" open>
        <summary>Settings (named as in TRL)</summary>
        <SettingsForm schema={schema} fields={fields} settings={settings} onChange={change} locked={assignment.locked} />
      </details>
    </div>
  );
}
