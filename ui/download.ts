/** Saves text as a file, as the browser downloads it: a run, an assignment, a submission, a grades table. */
export function downloadText(text: string, name: string, type: 'application/json' | 'text/csv'): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}
