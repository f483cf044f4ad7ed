import fs from 'node:fs';
import path from 'node:path';

/**
 * A small Markdown reader for one job: the relative links of a page and the anchors its headings make,
 * with GitHub's rules. No Markdown library is installed, and these two questions need only a little of
 * the grammar: fenced code and code spans (links inside them are not links), inline links and images,
 * reference definitions, ATX and setext headings, and HTML `id`/`name` anchors.
 */

export interface Link {
  line: number;
  target: string;
}

/** The page's lines with fenced code blocks blanked (kept as empty lines, so line numbers hold). */
function proseLines(markdown: string): string[] {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  return lines.map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && opener) {
      fence = opener[1]!;
      return '';
    }
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null;
      return '';
    }
    return line;
  });
}

/** Removes code spans (`` `x` ``, ``` ``x`` ```), whose brackets and parentheses are text, not links. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, '');
}

/** Every link target of the page: inline links and images `[text](target "title")` and `[id]: target` definitions. */
export function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(line);
    if (definition) links.push({ line: index + 1, target: definition[1]! });
    // `](` then the destination: `<...>` or up to the first space or closing parenthesis.
    for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)/g)) {
      links.push({ line: index + 1, target: match[1]!.replace(/^<|>$/g, '') });
    }
  });
  return links;
}

/** Heading text as GitHub reads it for the slug: link text kept, markup and HTML dropped. */
function headingText(raw: string): string {
  return raw
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/\*+/g, '')
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=[^\p{L}\p{N}]|$)/gu, '$1$2');
}

/**
 * GitHub's heading slug (the rules of github-slugger): lower case, every character that is not a
 * letter, mark, number, connector (`_`), space or hyphen removed, each space a hyphen. A repeated
 * slug gets `-1`, `-2`, … in order of appearance.
 */
export function slug(heading: string): string {
  return headingText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: its headings' slugs (numbered when repeated) and HTML `id`/`name` attributes. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (text: string) => {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = proseLines(markdown);
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) add(atx[1] ?? '');
    else if (
      index > 0 &&
      /^ {0,3}(=+|-+)\s*$/.test(line) &&
      /\S/.test(lines[index - 1]!) &&
      !/^\s*([-*+]|\d+[.)])\s/.test(lines[index - 1]!)
    ) {
      if (!/^ {0,3}-+\s*$/.test(line) || !/^\s*\|/.test(lines[index - 1]!)) add(lines[index - 1]!);
    }
    for (const match of withoutCodeSpans(line).matchAll(/<[a-z][^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]!);
  });
  return anchors;
}

export interface Problem {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Checks every relative link of the given pages (paths relative to `root`): the file exists, and so does its `#anchor`. */
export function checkLinks(root: string, files: readonly string[]): Problem[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (absolute: string) => {
    let anchors = anchorCache.get(absolute);
    if (!anchors) {
      anchors = anchorsOf(fs.readFileSync(absolute, 'utf8'));
      anchorCache.set(absolute, anchors);
    }
    return anchors;
  };
  const problems: Problem[] = [];
  for (const file of files) {
    const absoluteFile = path.join(root, file);
    for (const { line, target } of linksOf(fs.readFileSync(absoluteFile, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, …
      const [rawPath = '', rawAnchor] = target.split('#', 2);
      const report = (problem: string) => problems.push({ file, line, target, problem });
      const decoded = decodeURIComponent(rawPath);
      const linked =
        decoded === ''
          ? absoluteFile
          : path.resolve(decoded.startsWith('/') ? root : path.dirname(absoluteFile), decoded.replace(/^\//, ''));
      if (!fs.existsSync(linked)) {
        report(`no file ${path.relative(root, linked)}`);
        continue;
      }
      if (rawAnchor === undefined || rawAnchor === '') continue;
      if (!linked.endsWith('.md')) continue; // anchors into code (#L10) are GitHub's line numbers
      const anchor = decodeURIComponent(rawAnchor);
      if (!anchorsIn(linked).has(anchor)) report(`no heading #${anchor} in ${path.relative(root, linked)}`);
    }
  }
  return problems;
}

/** The Markdown pages whose links are checked: the front door, the docs, and every folder's README. */
export function markdownPages(root: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string, all: boolean) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
        walk(relative, all);
      } else if (entry.name.endsWith('.md') && (all || entry.name === 'README.md')) pages.push(relative);
    }
  };
  for (const file of ['README.md', 'CONTRIBUTING.md']) if (fs.existsSync(path.join(root, file))) pages.push(file);
  walk('docs', true);
  for (const dir of ['bench', 'src', 'test', 'packages', 'web']) if (fs.existsSync(path.join(root, dir))) walk(dir, false);
  return pages.sort();
}
