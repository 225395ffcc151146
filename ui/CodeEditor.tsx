'use client';

/**
 * A JavaScript editor (CodeMirror 6) for code the reader writes: a lab's reward function, a chapter's exercise.
 * CodeMirror loads as a chunk of its own when the editor first mounts; until then (and without script) the code is
 * shown as plain text. Tab is left to the browser, so keyboard users can always move on (Escape, then Tab, is not
 * needed); the editable area carries the label screen readers announce. The plain text is focusable, so a keyboard
 * user can reach the editor before it has loaded: focus moves into the editor when it arrives.
 */
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import './code-editor.css';

export interface CodeEditorProps {
  /** The accessible name of the editable area, e.g. "Reward function". */
  label: string;
  value: string;
  onChange(value: string): void;
  readOnly?: boolean;
  /** Extra class for the wrapper. */
  className?: string;
}

type View = import('@codemirror/view').EditorView;

async function createView(parent: HTMLElement, props: { label: string; value: string; readOnly: boolean }, onChange: (value: string) => void): Promise<View> {
  const [{ EditorView, keymap, lineNumbers, drawSelection, highlightActiveLine }, { EditorState }, { defaultKeymap, history, historyKeymap }, { javascript }, { bracketMatching, syntaxHighlighting, indentOnInput }, { classHighlighter }] =
    await Promise.all([import('@codemirror/view'), import('@codemirror/state'), import('@codemirror/commands'), import('@codemirror/lang-javascript'), import('@codemirror/language'), import('@lezer/highlight')]);
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: props.value,
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        // Token classes (tok-keyword…) coloured by code-editor.css in both themes: CodeMirror's default colours are
        // for a light background and fail contrast on a dark one.
        syntaxHighlighting(classHighlighter),
        javascript(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorState.readOnly.of(props.readOnly),
        EditorView.contentAttributes.of({ 'aria-label': props.label, 'aria-multiline': 'true' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
}

export function CodeEditor({ label, value, onChange, readOnly = false, className }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const fallback = useRef<HTMLPreElement>(null);
  const view = useRef<View | null>(null);
  const latest = useRef(onChange);
  latest.current = onChange;
  const replacing = useRef(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    // The reader's edit is committed at once: CodeMirror's change arrives outside React's events, so React would
    // otherwise render it at its leisure, and a Check or Train pressed in between (a loaded machine, a quick keyboard)
    // would read the code as it was before the edit. A value that came from outside is not echoed back.
    const edited = (text: string) => {
      if (!replacing.current) flushSync(() => latest.current(text));
    };
    void createView(host.current!, { label, value, readOnly }, edited).then((created) => {
      if (cancelled) return created.destroy();
      view.current = created;
      if (fallback.current && document.activeElement === fallback.current) created.focus();
      setReady(true);
    });
    return () => {
      cancelled = true;
      view.current?.destroy();
      view.current = null;
    };
    // The view is created once; later values arrive through the effect below.
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // A value set from outside (an example chosen, a reset) replaces the document; the reader's own typing does not loop.
  useEffect(() => {
    const current = view.current;
    if (!current || current.state.doc.toString() === value) return;
    replacing.current = true;
    try {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
    } finally {
      replacing.current = false;
    }
  }, [value, ready]);

  return (
    <div className={`code-editor${className ? ` ${className}` : ''}`} data-ready={ready ? 'true' : 'false'}>
      <div ref={host} />
      {ready ? null : (
        <pre ref={fallback} className="code-editor-fallback" role="textbox" aria-multiline="true" aria-readonly="true" aria-label={label} tabIndex={0}>
          {value}
        </pre>
      )}
    </div>
  );
}
