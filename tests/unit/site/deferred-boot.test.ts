/**
 * The deferred boot script (app/_components/boot/deferred-boot.ts) decides through public signals only: whether React
 * has reported the page's root hydrated (BootSignal) and whether an element is inside a `data-boot-pending` region. It
 * is run here in a small stand-in for the DOM (node has none), with the clock faked, so each decision can be driven
 * step by step. One case per race the boot has had: a press React heard while hydrating on the spot and that was
 * pressed again, a press on a region that hydrates after the root taken as heard, a press in a lab still reading its
 * link, a value typed into a region that hydrates later.
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
  append<T extends FakeElement>(child: T): T {
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
  /** Events the script fires on the element when it does again what the reader did. */
  fired: string[] = [];
  dispatchEvent(event: { type?: string } | FakeEvent) {
    this.fired.push((event as FakeEvent).type);
    return true;
  }
}

/** A text field: its value is an accessor on the prototype, as the script expects of an <input> (React's value tracker). */
class FakeInput extends FakeElement {
  #value = '';
  /** Values set through the prototype's setter, as React's tracker would see them. */
  set: string[] = [];
  constructor() {
    super('input');
    this.type = 'text';
  }
  get value() {
    return this.#value;
  }
  set value(v: string) {
    this.#value = v;
    this.set.push(v);
  }
}

class FakeEvent {
  stopped = false;
  prevented = false;
  readonly target: FakeElement | null;
  constructor(
    readonly type: string,
    target: FakeElement | object | null = null,
  ) {
    this.target = target instanceof FakeElement ? target : null; // `new Event(type, { bubbles })` from the script
  }
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
    replaceWith: (script: { src?: string }) => started.push(script),
  }));
  const started: { src?: string }[] = [];
  const document = {
    readyState: 'complete',
    addEventListener: on(documentCapture),
    querySelector: () => null,
    querySelectorAll: () => deferred.splice(0),
    createElement: () => ({}),
    activeElement: null,
  };
  const window: Record<string, unknown> = {
    document,
    location: { search: '', hash: '' },
    addEventListener: on(windowListeners),
    removeEventListener: () => {},
    Element: FakeElement,
    Event: FakeEvent,
    setTimeout,
    clearTimeout,
  };
  vm.runInNewContext(bootScript, Object.assign(window, { window }));
  const boot = window.__arlBoot as { boot(): void; hydrated(): void; live(): boolean; pending(): number };
  /**
   * An event as the browser delivers it: the boot's capture listener on the document (added by the inline script,
   * before React's listeners on the same document), then, unless it stopped the event, React, then the window.
   */
  const dispatch = (type: string, el: FakeElement, react?: () => void) => {
    const event = new FakeEvent(type, el);
    for (const listener of documentCapture.get(type) ?? []) listener(event);
    if (event.stopped) return event;
    react?.();
    for (const listener of windowListeners.get(type) ?? []) listener(event);
    return event;
  };
  const press = (el: FakeElement, react?: () => void) => dispatch('click', el, react);
  return { boot, press, dispatch, started };
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

  it('starts the deferred framework scripts when asked', () => {
    const { boot, started } = startPage();
    expect(started).toHaveLength(0);
    boot.boot();
    expect(started.map((s) => s.src)).toEqual(['/_next/static/chunks/a.js', '/_next/static/chunks/b.js']);
  });

  it('holds a press made before the page is live from React, and presses it again once, after the effects of the hydrating commit', () => {
    const { boot, press } = startPage();
    const button = new FakeElement('main').append(new FakeElement('button'));
    // React, hydrating, would deliver this press on the spot (it hydrates the root synchronously to do so), and the
    // replay would press it a second time: "Mark chapter as completed" toggled back in CI. It must never get it.
    const event = press(button, () => expect.unreachable('React heard a press made before the page was live'));
    expect(event.stopped).toBe(true);
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

  it('holds a submit button’s press and its default (the browser would send the form to the address bar)', () => {
    const { boot, press } = startPage();
    const submit = new FakeElement('form').append(new FakeElement('button'));
    Object.assign(submit, { type: 'submit', form: submit.parent });
    const event = press(submit, () => expect.unreachable('React heard a press made before the page was live'));
    expect(event).toMatchObject({ stopped: true, prevented: true });
    boot.hydrated();
    vi.advanceTimersByTime(100);
    expect(submit.clicks).toBe(1);
  });

  it('presses again a button of an island pressed while the page hydrates: the island is a root of its own, hydrated later', () => {
    const { boot, press } = startPage();
    const island = new FakeElement('div', 'island');
    const button = island.append(new FakeElement('button'));
    press(button, () => expect.unreachable('React heard a press made before the page was live'));
    boot.hydrated(); // the page's root: the island's own listeners are on now, and wake it on the press
    vi.advanceTimersByTime(100);
    expect(button.clicks).toBe(1);
    // Once the page is live an island's events are its own: nothing is recorded for them.
    press(button);
    expect(boot.pending()).toBe(0);
  });

  it('holds a press inside a region marked pending, out of React’s reach, and presses it once the region is no longer pending', () => {
    const { boot, press } = startPage();
    boot.hydrated();
    const lab = new FakeElement('div', 'lab');
    lab.attrs.set('data-boot-pending', '');
    const button = lab.append(new FakeElement('button'));
    expect(press(button, () => expect.unreachable('React must not hear a press on a pending region')).stopped).toBe(true);
    vi.advanceTimersByTime(500);
    expect(button.clicks).toBe(0);
    lab.attrs.delete('data-boot-pending');
    vi.advanceTimersByTime(150);
    expect(button.clicks).toBe(1);
    // Once the region is React's, a press is React's alone.
    let heard = 0;
    expect(press(button, () => (heard += 1)).stopped).toBe(false);
    vi.advanceTimersByTime(500);
    expect(heard).toBe(1);
    expect(button.clicks).toBe(1);
    expect(boot.pending()).toBe(0);
  });

  it('sets again, once the region is React’s, a value typed into a region that hydrates after the page', () => {
    const { boot, dispatch } = startPage();
    boot.hydrated(); // the page's root has reported: that says nothing of the lab, still pending
    const lab = new FakeElement('div', 'lab');
    lab.attrs.set('data-boot-pending', '');
    const field = lab.append(new FakeInput());
    field.value = '1e-4, 1e-3';
    dispatch('input', field);
    expect(boot.pending()).toBe(1);
    // Hydration puts the field back to the lab's state.
    field.value = '';
    vi.advanceTimersByTime(500);
    expect(field.fired).toEqual([]);
    lab.attrs.delete('data-boot-pending');
    vi.advanceTimersByTime(100);
    expect(field.value).toBe('1e-4, 1e-3');
    expect(field.fired).toEqual(['input', 'change', 'focusout']); // React's onChange hears it; a blur commits it
    expect(boot.pending()).toBe(0);
  });

  it('drops what it recorded for a field the reader changes again once React has it (the newer value is theirs)', () => {
    const { boot, dispatch } = startPage();
    const lab = new FakeElement('div', 'lab');
    lab.attrs.set('data-boot-pending', '');
    const field = lab.append(new FakeInput());
    field.value = 'early';
    dispatch('input', field);
    boot.hydrated();
    lab.attrs.delete('data-boot-pending');
    field.value = 'later';
    dispatch('input', field); // before the replay's next poll
    vi.advanceTimersByTime(500);
    expect(field.value).toBe('later');
    expect(field.fired).toEqual([]);
    expect(boot.pending()).toBe(0);
  });

  it('announces again a <details> opened before the page was live (React’s onToggle missed it)', () => {
    const { boot, dispatch } = startPage();
    const details = new FakeElement('details');
    dispatch('toggle', details);
    boot.hydrated();
    vi.advanceTimersByTime(100);
    expect(details.fired).toEqual(['toggle']);
  });
});
