import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, checkLinks, linksOf, markdownPages, slug } from './markdown-links.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('links between the documents', () => {
  const pages = markdownPages(root);

  it('finds the pages to check', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/README.md');
    expect(pages.filter((page) => page.startsWith('docs/')).length).toBeGreaterThan(10);
  });

  it('has no dead relative link and no missing anchor', () => {
    const problems = checkLinks(root, pages).map((p) => `${p.file}:${p.line} ${p.target}: ${p.problem}`);
    expect(problems).toEqual([]);
  });
});

describe('the Markdown reader', () => {
  it('makes the slugs GitHub makes', () => {
    expect(slug('Envelope and errors')).toBe('envelope-and-errors');
    expect(slug('Proof: sensitivity (`npm run bench:interleaving`)')).toBe('proof-sensitivity-npm-run-benchinterleaving');
    expect(slug('Search analytics (`src/analytics/`)')).toBe('search-analytics-srcanalytics');
    expect(slug('1, 2 and 4 instances')).toBe('1-2-and-4-instances');
    expect(slug('The `analytics_entities` table')).toBe('the-analytics_entities-table');
    expect(slug('A [linked](x.md) **bold** heading')).toBe('a-linked-bold-heading');
    expect(slug('Ranking — and — promotion')).toBe('ranking--and--promotion');
  });

  it('numbers repeated headings and reads setext headings and HTML anchors', () => {
    const anchors = anchorsOf('# Tests\n\n## Tests\n\nSetext\n------\n\n<a id="custom"></a>\n');
    expect([...anchors]).toEqual(['tests', 'tests-1', 'setext', 'custom']);
  });

  it('ignores links in code and finds inline links, images and definitions', () => {
    const text = 'see [a](a.md#x) and ![b](b.png)\n`[no](no.md)`\n```\n[no](fenced.md)\n```\n[ref]: c.md\n';
    expect(linksOf(text).map((l) => l.target)).toEqual(['a.md#x', 'b.png', 'c.md']);
  });
});
