/**
 * What the reader entered into a widget before React hydrated it. Every widget's code is a chunk of its
 * own (islands/Island.tsx), so a quick reader can type into the server-rendered
 * inputs first. React keeps such DOM values when it hydrates but fires no change event, so the widget
 * reads them back once, on mount: `input[data-field]` → its value, or for a checkbox whether it is ticked.
 */
export function enteredBeforeHydration(root: HTMLElement | null): Map<string, string | boolean> {
  const out = new Map<string, string | boolean>();
  root?.querySelectorAll<HTMLInputElement>('input[data-field]').forEach((el) => {
    out.set(el.dataset.field!, el.type === 'checkbox' ? el.checked : el.value);
  });
  return out;
}
