/**
 * Replays into a freshly hydrated island what the reader did to its server-rendered HTML before its code arrived:
 * form fields they changed, and buttons they pressed (a reader on a slow line must not lose a click or a keystroke).
 *
 * Each changed field is given back the value the reader left in it and announced to React as if typed just now.
 * React ignores an input event whose value it believes the field already shows (its value tracker), so the field is
 * first set to another value through the tracked setter, then to the reader's through the element's native setter.
 */
type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** An event, with the value and checked state its target had when it fired. */
export type EarlyEvent = [event: Event, value: string | undefined, checked: boolean | undefined];

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

export function replay(root: HTMLElement, early: EarlyEvent[]): void {
  const fields = new Map<Field, { value: string; checked: boolean }>();
  const pressed: HTMLButtonElement[] = [];
  for (const [event, value, checked] of early) {
    const target = event.target;
    if ((event.type === 'input' || event.type === 'change') && isField(target)) fields.set(target, { value: value ?? '', checked: checked ?? false });
    const button = event.type === 'click' ? (target as Element | null)?.closest?.('button') : null;
    if (button && root.contains(button)) pressed.push(button);
  }
  fields.forEach((left, field) => field.isConnected && announce(field, left.value, left.checked));
  for (const button of pressed) if (button.isConnected && !button.disabled) button.click();
}

function setNatively(field: Field, property: 'value' | 'checked', value: string | boolean) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), property)?.set?.call(field, value);
}

/** Put the reader's value back into `field` and tell React it changed. */
function announce(field: Field, value: string, checked: boolean) {
  if (field instanceof HTMLSelectElement) {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    field.checked = !checked;
    setNatively(field, 'checked', checked);
    // A plain Event, not a MouseEvent: React reads box changes from click events, and this one toggles nothing.
    field.dispatchEvent(new Event('click', { bubbles: true }));
  } else {
    field.value = value === '' ? ' ' : '';
    setNatively(field, 'value', value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
}
