import { describe, expect, it } from 'vitest';
import { attachQueryIds, LetorParseError, LetorParser, parseLetor, parseLetorStream } from './letor.js';

const SAMPLE = `4 qid:1 1:9.8 2:12.3 # 7555 rambo
3 qid:1 1:10.7 3:6.8
0 qid:2 2:0.5
`;

describe('parseLetor', () => {
  it('builds a dense matrix with NaN for absent entries and query groups', () => {
    const d = parseLetor(SAMPLE);
    expect(d.numRows).toBe(3);
    expect(d.featureNames).toEqual(['1', '2', '3']);
    expect(Array.from(d.labels)).toEqual([4, 3, 0]);
    expect(Array.from(d.groups!)).toEqual([0, 2, 3]);
    expect(d.qids).toEqual(['1', '2']);
    expect(d.features[0]).toBeCloseTo(9.8, 5);
    expect(Number.isNaN(d.features[2]!)).toBe(true);
    expect(d.features[5]).toBeCloseTo(6.8, 5);
  });

  it('can map absent entries to 0 (what the LTR plugin feeds for unmatched features)', () => {
    const d = parseLetor(SAMPLE, { missing: 'zero' });
    expect(d.features[2]).toBe(0);
  });

  it('gives the same dataset however the text is chunked', async () => {
    const whole = parseLetor(SAMPLE);
    const chunks = SAMPLE.match(/[\s\S]{1,7}/g)!;
    async function* gen() {
      for (const c of chunks) yield c;
    }
    const streamed = await parseLetorStream(gen());
    expect(Array.from(streamed.features)).toEqual(Array.from(whole.features));
    expect(Array.from(streamed.groups!)).toEqual(Array.from(whole.groups!));
    const p = new LetorParser();
    p.pushChunk('1 qid:9 1:1');
    expect(p.finish().numRows).toBe(1); // last line without newline is flushed
  });

  it('reports malformed lines with their line number', () => {
    const bad = (text: string) => () => parseLetor(text);
    expect(bad('1 qid:1 1:1\n\nx qid:1 1:2\n')).toThrow(/line 3: label "x"/);
    expect(bad('1 1:1\n')).toThrow(/line 1: missing qid/);
    expect(bad('1 qid:1 1:1\n1 qid:1 a:2\n')).toThrow(/line 2: feature index "a"/);
    expect(bad('1 qid:1 1:1 1:2\n')).toThrow(/feature 1 appears twice/);
    expect(bad('1 qid:1 1:\n')).toThrow(/value of feature 1/);
    expect(bad('1 qid:1 1:1\n1 qid:2 1:1\n1 qid:1 1:1\n')).toThrow(/line 3: qid 1 reappears/);
    expect(bad('1 qid:1 1:1\n1 qid:2 1:1\n1 qid:1 1:1\n')).toThrow(LetorParseError);
  });

  it('accepts plain SVMlight when qid is not required', () => {
    const d = parseLetor('1 1:0.5\n0 2:1\n', { requireQid: false });
    expect(d.groups).toBeUndefined();
    expect(d.numFeatures).toBe(2);
  });
});

describe('attachQueryIds', () => {
  it('adds qid: from a group-size file', () => {
    const out = attachQueryIds('1 1:1\n0 2:1 # c\n2 1:3\n', '2\n1\n');
    expect(out).toBe('1 qid:1 1:1\n0 qid:1 2:1 # c\n2 qid:2 1:3\n');
    expect(() => attachQueryIds('1 1:1\n', '2\n')).toThrow(/sums to 2 rows/);
  });
});
