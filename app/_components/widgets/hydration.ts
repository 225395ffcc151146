/**
 * What the reader set in a widget's server-rendered controls before its chunk arrived (islands/Island.tsx), for instance by typing before hydration: React keeps
 * such DOM values when it hydrates but fires no change event. Reads every `[data-field]` control once, on
 * mount: a select's or text input's value, a checkbox's checked state, and the checked radio of a group.
 */
export function fieldsBeforeHydration(root: HTMLElement | null): Map<string, string | boolean> {
  const out = new Map<string, string | boolean>();
  root?.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-field]').forEach((el) => {
    const name = el.dataset.field!;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') out.set(name, el.checked);
    else if (el instanceof HTMLInputElement && el.type === 'radio') {
      if (el.checked) out.set(name, el.value);
    } else out.set(name, el.value);
  });
  return out;
}
