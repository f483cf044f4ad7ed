/** One line of the input, with where it ends: a resumed import starts after the last saved line. */
export interface Line {
  text: string;
  line: number;
  /** Byte offset just after this line: where a resumed import starts. */
  end: number;
}

/** Lines with their byte offsets, in constant memory, from `startOffset` (line `startLine` ends there). */
export async function* readLines(input: NodeJS.ReadableStream, startOffset: number, startLine: number): AsyncGenerator<Line> {
  let rest = Buffer.alloc(0);
  let offset = startOffset;
  let line = startLine;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = buffer.indexOf(10)) >= 0) {
      offset += nl + 1;
      yield { text: buffer.subarray(0, nl).toString('utf8'), line: ++line, end: offset };
      buffer = buffer.subarray(nl + 1);
    }
    rest = Buffer.from(buffer);
  }
  if (rest.length) yield { text: rest.toString('utf8'), line: line + 1, end: offset + rest.length };
}
