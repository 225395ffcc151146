/**
 * A reader's JSONL file (lib/tasks/dataset.ts): every malformed line is refused with its line number, nothing is
 * half-loaded, the split is explicit or a stable hash, and the checks against the model (vocabulary, context) name
 * the line that breaks them. The task built from it pads prompts as the trainers need.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/random';
import { checkFits, createDatasetTask, DatasetError, parseDataset, referenceAnswer, sftTarget, type Dataset } from '@/lib/tasks/dataset';
import { createCharTokenizer } from '@/lib/tasks/tokenizer';
import { datasetLimits } from '@/lib/train/dataset-task';

const lines = (...objects: unknown[]) => objects.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))).join('\n');
const refused = (text: string, kind: 'prompt-answer' | 'preference' = 'prompt-answer') => {
  try {
    parseDataset(text, kind);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};
const train = (prompt: string, answer: string) => ({ prompt, answer, split: 'train' });
const test = (prompt: string, answer: string) => ({ prompt, answer, split: 'test' });

describe('parseDataset', () => {
  it('reads prompt/answer and preference lines, skipping blank lines, a BOM and CRLF line ends', () => {
    const data = parseDataset(`\uFEFF${lines(train('07+45=', '52'), '', test('10+10=', '#### 20'))}\r\n`, 'prompt-answer');
    expect(data).toEqual({
      kind: 'prompt-answer',
      records: [
        { line: 1, prompt: '07+45=', answer: '52', split: 'train' },
        { line: 3, prompt: '10+10=', answer: '#### 20', split: 'test' },
      ],
    });
    const pairs = parseDataset(lines({ prompt: '1+1=', chosen: '#### 2', rejected: '#### 3', split: 'train' }, { prompt: '2+2=', chosen: '#### 4', rejected: '#### 5', split: 'test' }), 'preference');
    expect(pairs.records.map((r) => r.line)).toEqual([1, 2]);
  });

  it('refuses every malformed line, naming it and what is wrong', () => {
    const ok = JSON.stringify(train('07+45=', '52'));
    expect(refused(`${ok}\n{"prompt": "1+1=", "answer": 2`)).toMatch(/^line 2: not valid JSON \(/);
    expect(refused(`${ok}\n[1, 2]`)).toBe('line 2: expected an object like {"prompt": "07+45=", "answer": "52"}');
    expect(refused(`${ok}\n${JSON.stringify({ prompt: '1+1=' })}`)).toBe('line 2: missing "answer"');
    expect(refused(`${ok}\n${JSON.stringify({ prompt: '1+1=', answer: 2 })}`)).toBe('line 2: "answer" must be a string');
    // A misspelt field is named before the field it fails to provide.
    expect(refused(`${ok}\n${JSON.stringify({ prompt: '1+1=', answr: '2' })}`)).toBe('line 2: unknown field "answr" (the fields are prompt, answer, split)');
    expect(refused(`${ok}\n${JSON.stringify({ prompt: '1+1=', answer: '2', split: 'validation' })}`)).toBe('line 2: "split" must be "train" or "test"');
    expect(refused(`${ok}\n${JSON.stringify({ prompt: ' ', answer: '2' })}`)).toBe('line 2: "prompt" is empty');
    expect(refused(JSON.stringify({ prompt: '1+1=', chosen: '#### 2' }), 'preference')).toBe('line 1: missing "rejected"');
    expect(refused(JSON.stringify(train('1+1=', '2')), 'preference')).toBe('line 1: unknown field "answer" (the fields are prompt, chosen, rejected, split)');
  });

  it('needs records', () => {
    expect(refused('\n\n')).toMatch(/^the file has no records/);
  });

  it('splits lines without a split by a hash of the prompt: about 10%, the same prompt always on the same side', () => {
    const problems = Array.from({ length: 2000 }, (_, i) => ({ prompt: `${String(i % 1000).padStart(3, '0')}+1=`, answer: String((i % 1000) + 1) }));
    const data = parseDataset(lines(...problems), 'prompt-answer');
    const held = data.records.filter((r) => r.split === 'test');
    expect(held.length / data.records.length).toBeGreaterThan(0.07);
    expect(held.length / data.records.length).toBeLessThan(0.13);
    const side = new Map<string, string>();
    for (const r of data.records) {
      expect(side.get(r.prompt) ?? r.split).toBe(r.split);
      side.set(r.prompt, r.split);
    }
  });
});

describe('checkFits (the arithmetic models: their vocabulary, a context of 22)', () => {
  const limits = datasetLimits();
  const data = (...records: object[]) => parseDataset(lines(...records), 'prompt-answer');
  const misfit = (dataset: Dataset, sampled?: number) => {
    try {
      checkFits(dataset, limits, sampled);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('the dataset fit');
  };

  it('knows the models it checks against', () => {
    expect(limits).toEqual({ chars: '0123456789+-*=# ,[]', contextLength: 22 });
  });

  it('needs something to train on and something held out, once every line is checked', () => {
    expect(misfit(data(test('1+1=', '2')))).toBe('no line is for training: every line has "split": "test"');
    expect(misfit(data(train('1+1=', '2'), train('1+2=', '3')))).toMatch(/^no line is held out for evaluation: add "split": "test"/);
    // A bad line is named first: it is what the reader must fix.
    expect(misfit(data(train('1+1=', '2'), train('one', '3')))).toMatch(/^line 2: "prompt" has the character "o"/);
  });

  it('names the line and the character the vocabulary lacks', () => {
    expect(misfit(data(train('1+1=', '2'), test('what?', '2')))).toBe('line 2: "prompt" has the character "w" (position 1), which the model\'s vocabulary lacks (it knows "0123456789+-*=# ,[]")');
    expect(misfit(data(train('1+1=', '2'), test('2+2=', 'four')))).toMatch(/^line 2: "answer" has the character "f"/);
  });

  it('checks a GRPO file against max_completion_length, and says what would fit', () => {
    const d = data(train('07+45=', '52'), test('1234567+1=', '1234568'));
    expect(misfit(d, 15)).toBe(
      'line 2: the prompt has 10 characters: with <bos> and max_completion_length 15 a row needs 25 positions, and the model\'s context is 22 (shorten the prompts to 7 characters, or lower max_completion_length to 12)',
    );
    expect(() => checkFits(d, limits, 12)).not.toThrow();
    expect(() => checkFits(data(train('123456=', '1'), test('1=', '1')), limits, 15)).not.toThrow(); // 1 + 7 + 15 − 1 = 22
  });

  it('checks an SFT or DPO row: the longest prompt plus its own completion', () => {
    expect(() => checkFits(data(train('07+45=', '12,5 #### 52'), test('1+1=', '2')), limits)).not.toThrow();
    const long = data(train('0000007+45=', '12,5 #### 52'), test('1+1=', '2'));
    expect(misfit(long)).toBe("line 1: \"answer\" is 12 characters; after the longest prompt (line 1, 11 characters) and <bos>, the model's context of 22 leaves room for 10");
    const pairs = parseDataset(lines({ prompt: '07+45=', chosen: '#### 52', rejected: '#### 52 52 52 52 52 52', split: 'train' }, { prompt: '1+1=', chosen: '#### 2', rejected: '#### 3', split: 'test' }), 'preference');
    expect(misfit(pairs)).toMatch(/^line 1: "rejected" is 22 characters/);
  });
});

describe('createDatasetTask', () => {
  const tokenizer = createCharTokenizer();
  const dataset = parseDataset(lines(train('7+5=', '12'), train('07+45=', '12,5 #### 52'), test('1+1=', '#### 2')), 'prompt-answer');
  const task = createDatasetTask(dataset, tokenizer, 22);

  it('reads answers as the rewards compare them and targets as SFT writes them', () => {
    expect([referenceAnswer('52'), referenceAnswer('#### 52'), referenceAnswer('12,5 #### 52')]).toEqual(['52', '52', '52']);
    expect([sftTarget('52'), sftTarget('12,5 #### 52')]).toEqual(['#### 52', '12,5 #### 52']);
    expect(task.testSet(200)).toEqual([{ line: 3, prompt: '1+1=', answer: '2', completion: '#### 2' }]);
  });

  it('pads every prompt to the longest after <bos>, so rows share one length', () => {
    expect(task.promptLength).toBe(7);
    const [short] = task.sample('train', 50, createRng(1)).filter((p) => p.prompt === '7+5=');
    expect(task.encodePrompt(short)).toEqual([tokenizer.bos, tokenizer.pad, tokenizer.pad, ...tokenizer.encode('7+5=')]);
    expect(task.encodeCompletion(short)).toEqual([...tokenizer.encode('#### 12'), tokenizer.eos]);
    expect(task.maxCompletionLength).toBe(16);
  });

  it('samples only its split', () => {
    const drawn = task.sample('train', 100, createRng(2));
    expect(new Set(drawn.map((p) => p.line))).toEqual(new Set([1, 2]));
    expect(task.sample('test', 5, createRng(3)).every((p) => p.line === 3)).toBe(true);
  });
});
