/**
 * The step loop every trainer runs under, in Node, on a page or in a worker: pause, resume, stop,
 * periodic held-out evaluation, and a hard stop on NaN/Inf that keeps the history so far.
 */
import { errorMessage } from '@/lib/errors';

export type Metrics = Record<string, number>;

/**
 * Awaited by a long step between its parts (a self-improvement round between its fine-tuning steps): returns at once
 * while the run goes on, or once it resumes when it was paused; throws StopRequested when it was stopped. Nothing the
 * step computes depends on it, so a paused and resumed step ends with the numbers of an unpaused one.
 */
export type PausePoint = () => Promise<void>;

/** What PausePoint throws once the run is stopped: the step in flight is dropped, unlogged. */
export class StopRequested extends Error {
  constructor() {
    super('the run was stopped');
    this.name = 'StopRequested';
  }
}

/** What a trainer offers the loop: one optimizer step, and a held-out evaluation. */
export interface StepTrainer {
  /**
   * One optimizer step; returns the step's metrics under TRL's logged names. A step long enough that a reader would
   * wait for it to end before a pause took effect awaits `pausePoint` between its parts; short steps ignore it.
   */
  trainStep(pausePoint?: PausePoint): Promise<Metrics>;
  /** Held-out evaluation, e.g. { 'eval/accuracy': 0.42 }. */
  evaluate(): Promise<Metrics>;
  dispose(): void;
}

export type RunState = 'idle' | 'running' | 'paused' | 'stopped' | 'done' | 'failed';

export interface LogLine {
  /** Optimizer steps completed when this line was logged (0 = before training). */
  step: number;
  kind: 'train' | 'eval';
  metrics: Metrics;
}

export interface RunOptions {
  maxSteps: number;
  /** Evaluate every this many steps (and before the first step, and after the last). 0 = never. */
  evalEvery: number;
  onLog?: (line: LogLine) => void;
  /** Awaited after each training step's log line, before the next step (a lab reads its inspector data here). */
  afterStep?: (step: number) => Promise<void>;
  onState?: (state: RunState, error?: string) => void;
}

/**
 * How often a step's pause points give the event loop a turn. A pause arrives as a message (a worker's onmessage),
 * handled only between tasks, and some backends never leave the task while they compute; every 100 ms answers a pause
 * within a tenth of a second.
 */
const PAUSE_POLL_MS = 100;

/**
 * A turn of the event loop: messages already queued (a worker's onmessage: pause, stop) are handled before it ends.
 * Not setTimeout(0): a step runs inside the task of the timer that started it (wasm's reads resolve as microtasks), so
 * each step's timer is nested in the previous one's, and browsers clamp nested timers to at least 4 ms (HTML's timer
 * nesting level): 4.2 ms a step in a Chromium worker against 0.02 ms for a message on a channel, measured (issue 50;
 * 6.7 s of the vision lab's 1,600 steps). Node has setImmediate (its setTimeout(0) takes 1.2 ms).
 */
export function nextTask(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  turns ??= oneChannel();
  const { send, waiting } = turns;
  return new Promise((resolve) => {
    waiting.push(resolve);
    send.postMessage(null);
  });
}

/** One channel for every turn, made on the first: a channel a step would be 1,600 port pairs in the vision lab's run. */
let turns: { send: MessagePort; waiting: Array<() => void> } | null = null;
function oneChannel() {
  const { port1, port2 } = new MessageChannel();
  const waiting: Array<() => void> = [];
  // Messages arrive in the order posted, so each answers the oldest turn waiting.
  port1.onmessage = () => waiting.shift()?.();
  return { send: port2, waiting };
}

export class TrainingRun {
  readonly history: LogLine[] = [];
  state: RunState = 'idle';
  error: string | undefined;
  private step = 0;
  private stopRequested = false;
  private resumeGate: (() => void) | null = null;
  /** Whether a step (or its evaluation) is in flight, and who waits for it to end. */
  private stepping = false;
  /** Whether the step in flight is waiting at a pause point: the model is between two of its parts. */
  private parked = false;
  /**
   * Whether the step that just ran took a pause point: such a step has parts a pause can stop between, so the next
   * step may start and park mid-way; whatever reads the trainer's state for a step must read it before then.
   */
  stepTookPausePoints = false;
  private lastTurn = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly trainer: StepTrainer,
    private readonly options: RunOptions,
  ) {
    if (!Number.isInteger(options.maxSteps) || options.maxSteps < 1) throw new Error(`maxSteps must be a positive integer, got ${options.maxSteps}`);
  }

  get stepsDone(): number {
    return this.step;
  }

  /** Runs until maxSteps, stop() or a failure. Resolves with the final state; never rejects. */
  async run(): Promise<RunState> {
    if (this.state !== 'idle') throw new Error(`run() called twice (state: ${this.state})`);
    this.setState('running');
    try {
      if (this.options.evalEvery > 0 && !(await this.log('eval', () => this.trainer.evaluate()))) return this.state;
      while (this.step < this.options.maxSteps) {
        // A macrotask break between steps, so pause/stop messages (a worker's onmessage) get handled even
        // on backends whose data() resolves immediately.
        await nextTask();
        if (this.isPaused()) await new Promise<void>((resolve) => (this.resumeGate = resolve));
        if (this.stopRequested) return this.setState('stopped');
        this.step += 1;
        this.stepping = true;
        this.stepTookPausePoints = false;
        if (!(await this.log('train', () => this.trainer.trainStep(this.pausePoint)))) return this.state;
        await this.options.afterStep?.(this.step);
        const evalDue = this.options.evalEvery > 0 && (this.step % this.options.evalEvery === 0 || this.step === this.options.maxSteps);
        if (evalDue && !(await this.log('eval', () => this.trainer.evaluate()))) return this.state;
        this.settle();
      }
      return this.setState('done');
    } catch (error) {
      if (error instanceof StopRequested) return this.setState('stopped');
      return this.fail(`Training failed at step ${this.step}: ${errorMessage(error)}`);
    } finally {
      this.settle();
    }
  }

  /**
   * Resolves once no step is in flight, or the one in flight waits at a pause point. After pause() the state reads
   * 'paused' at once, but the step under way goes on to its next pause point (or its end): anything that touches the
   * model while paused (a lab's action, reading the weights) waits for this.
   */
  whenIdle(): Promise<void> {
    return this.stepping && !this.parked ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  /** The step's pause point (PausePoint): an arrow, so trainers can call it unbound. */
  private readonly pausePoint: PausePoint = async () => {
    this.stepTookPausePoints = true;
    if (performance.now() - this.lastTurn >= PAUSE_POLL_MS) {
      await nextTask(); // lets a pause or stop message in
      this.lastTurn = performance.now();
    }
    if (this.stopRequested) throw new StopRequested();
    if (!this.isPaused()) return;
    this.parked = true;
    this.wakeIdleWaiters();
    await new Promise<void>((resolve) => (this.resumeGate = resolve));
    this.parked = false;
    if (this.stopRequested) throw new StopRequested();
  };

  private settle(): void {
    this.stepping = false;
    this.wakeIdleWaiters();
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  }

  /** Takes effect between steps, or at the step's next pause point for a trainer that has them. */
  pause(): void {
    if (this.state === 'running') this.setState('paused');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.setState('running');
    this.releaseGate();
  }

  stop(): void {
    this.stopRequested = true;
    if (this.state === 'paused') {
      this.state = 'running'; // let the loop wake up and record 'stopped'
      this.releaseGate();
    }
  }

  private isPaused(): boolean {
    return this.state === 'paused';
  }

  private releaseGate(): void {
    const open = this.resumeGate;
    this.resumeGate = null;
    open?.();
  }

  /** Record one log line; returns false (and fails the run) if any metric is NaN or infinite. */
  private async log(kind: LogLine['kind'], produce: () => Promise<Metrics>): Promise<boolean> {
    const metrics = await produce();
    const bad = Object.entries(metrics).find(([, value]) => !Number.isFinite(value));
    const line: LogLine = { step: this.step, kind, metrics };
    this.history.push(line);
    this.options.onLog?.(line);
    if (bad) {
      this.fail(
        `Training stopped at step ${this.step}: ${bad[0]} is ${bad[1]}. The weights have diverged; ` +
          'lower learning_rate (or raise beta) and start again. The history up to here is kept.',
      );
      return false;
    }
    return true;
  }

  private fail(message: string): RunState {
    this.error = message;
    return this.setState('failed', message);
  }

  private setState(state: RunState, error?: string): RunState {
    this.state = state;
    this.options.onState?.(state, error);
    return state;
  }
}
