/**
 * The deferred boot script (app/_components/boot/deferred-boot.ts) decides through public signals only: whether React
 * has reported the page hydrated (BootSignal) and whether an element is inside a `data-boot-pending` region. It is run
 * here in a small stand-in for the DOM (node has none), with the clock faked, so each decision can be driven step by
 * step: a press before React, a press React hears while it hydrates, a press inside a pending lab, and the error it
 * logs when the framework's code has run and React never reports.
 */
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootScript } from '@/app/_components/boot/deferred-boot';

type Listener = (event: FakeEvent) => void;

class FakeElement {
  parent: FakeElement | null = null;
  attrs = new Map<string, string>();
  clicks = 0;
  disabled = false;
  isConnected = true;
  type = '';
  readonly tagName: string;
  constructor(
    tag: string,
    readonly className = '',
  ) {
    this.tagName = tag.toUpperCase(); // as the DOM spells an HTML element's tag
  }
  append(child: FakeElement) {
    child.parent = this;
    return child;
  }
  /** The selectors the boot script asks for: a tag, `.class` or `[attribute]`. */
  matches(selector: string): boolean {
    if (selector.startsWith('[')) return this.attrs.has(selector.slice(1, -1));
    if (selector.startsWith('.')) return this.className.split(' ').includes(selector.slice(1));
    return this.tagName === selector.toUpperCase();
  }
  closest(selector: string): FakeElement | null {
    for (let el: FakeElement | null = this; el; el = el.parent) if (el.matches(selector)) return el;
    return null;
  }
  click() {
    this.clicks += 1;
  }
}

class FakeEvent {
  stopped = false;
  prevented = false;
  constructor(
    readonly type: string,
    readonly target: FakeElement | null = null,
  ) {}
  stopImmediatePropagation() {
    this.stopped = true;
  }
  preventDefault() {
    this.prevented = true;
  }
}

function startPage() {
  const documentCapture = new Map<string, Listener[]>();
  const windowListeners = new Map<string, Listener[]>();
  const on = (map: Map<string, Listener[]>) => (type: string, listener: Listener) => map.set(type, [...(map.get(type) ?? []), listener]);
  const deferred = [{ src: '/_next/static/chunks/a.js' }, { src: '/_next/static/chunks/b.js' }].map(({ src }) => ({
    getAttribute: () => src,
    replaceWith: (script: { onload?: () => void }) => started.push(script),
  }));
  const started: { onload?: () => void }[] = [];
  const errors: string[] = [];
  const document = {
    readyState: 'complete',
    addEventListener: on(documentCapture),
    querySelector: () => null,
    querySelectorAll: () => deferred.splice(0),
    createElement: () => ({}),
  };
  const window: Record<string, unknown> = {
    document,
    location: { search: '', hash: '' },
    addEventListener: on(windowListeners),
    removeEventListener: () => {},
    Element: FakeElement,
    Event: FakeEvent,
    console: { error: (message: string) => errors.push(message) },
    setTimeout,
    clearTimeout,
  };
  vm.runInNewContext(bootScript, Object.assign(window, { window }));
  const boot = window.__arlBoot as { boot(): void; committed(): void; hydrated(): void; live(): boolean; pending(): number };
  /** A press as the browser delivers it: the boot's capture listener on the document, then (unless stopped) React, then the window. */
  const press = (el: FakeElement, react?: () => void) => {
    const event = new FakeEvent('click', el);
    for (const listener of documentCapture.get('click') ?? []) listener(event);
    if (event.stopped) return event;
    react?.();
    for (const listener of windowListeners.get('click') ?? []) listener(event);
    return event;
  };
  return { boot, press, started, errors };
}

describe('the deferred boot script', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads no private field of React or Next.js and fakes no document state', () => {
    expect(bootScript).not.toMatch(/__react|_reactListening|__next_f|defineProperty/);
  });

  it('presses again, once, a button pressed before React was there, once the page is live and its effects have run', () => {
    const { boot, press } = startPage();
    const page = new FakeElement('main');
    const button = page.append(new FakeElement('button'));
    press(button); // no React yet: nobody heard it
    expect(boot.pending()).toBe(1);
    boot.hydrated();
    vi.advanceTimersByTime(50);
    expect(button.clicks).toBe(0); // one poll more, so that the effects of the hydrating commit have run
    vi.advanceTimersByTime(50);
    expect(button.clicks).toBe(1);
    expect(boot.pending()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(button.clicks).toBe(1);
  });

  it('does not press again what React heard: a press that made React hydrate on the spot, which reported before its handler ran', () => {
    const { boot, press } = startPage();
    const button = new FakeElement('main').append(new FakeElement('button'));
    let heard = 0;
    press(button, () => {
      boot.committed(); // BootSignal's layout effect, in the commit that the press forced
      heard += 1;
    });
    expect(boot.live()).toBe(false);
    boot.hydrated(); // BootSignal's passive effect, a task or more later
    vi.advanceTimersByTime(1000);
    expect(heard).toBe(1);
    expect(button.clicks).toBe(0);
    expect(boot.pending()).toBe(0);
  });

  it('does not press again a press React heard after the commit and before the page\'s effects ran', () => {
    const { boot, press } = startPage();
    const page = new FakeElement('main');
    const button = page.append(new FakeElement('button'));
    boot.committed();
    let heard = 0;
    press(button, () => (heard += 1));
    boot.hydrated();
    vi.advanceTimersByTime(1000);
    expect(heard).toBe(1);
    expect(button.clicks).toBe(0);
    expect(boot.pending()).toBe(0);
  });

  it('holds a press inside a lab marked pending, out of React’s reach, and presses it once the lab is no longer pending', () => {
    const { boot, press } = startPage();
    boot.hydrated();
    const lab = new FakeElement('div', 'lab');
    lab.attrs.set('data-boot-pending', '');
    const button = lab.append(new FakeElement('button'));
    expect(press(button, () => expect.unreachable('React must not hear a press on a pending lab')).stopped).toBe(true);
    vi.advanceTimersByTime(500);
    expect(button.clicks).toBe(0);
    lab.attrs.delete('data-boot-pending');
    vi.advanceTimersByTime(150);
    expect(button.clicks).toBe(1);
    // Once the lab is React's, a press is React's alone.
    press(button);
    vi.advanceTimersByTime(500);
    expect(button.clicks).toBe(1);
    expect(boot.pending()).toBe(0);
  });

  it('logs an error when the framework’s scripts have run and React has not reported hydration 20 s later', () => {
    const { boot, started, errors } = startPage();
    boot.boot();
    expect(started).toHaveLength(2);
    started.forEach((script) => script.onload?.());
    vi.advanceTimersByTime(19_000);
    expect(errors).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(errors).toEqual([expect.stringContaining('React has not reported hydration after 20 s')]);
  });

  it('logs nothing when React reports in time', () => {
    const { boot, started, errors } = startPage();
    boot.boot();
    started.forEach((script) => script.onload?.());
    vi.advanceTimersByTime(5_000);
    boot.hydrated();
    vi.advanceTimersByTime(60_000);
    expect(errors).toEqual([]);
  });
});
