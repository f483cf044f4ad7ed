import fs from 'node:fs';

export interface ImportTotals {
  lines: number;
  imported: number;
  duplicates: number;
  rejected: number;
}

/** Where an import of a file got to: saved after each committed batch, read back by the next run. */
export interface ImportState {
  size: number;
  mtimeMs: number;
  offset: number;
  line: number;
  csvHeader?: string[];
  totals: ImportTotals;
}

/** `<file>.import-state.json`: the saved position of an import of `<file>`. */
export class ImportStateFile {
  readonly path: string;

  constructor(file: string) {
    this.path = `${file}.import-state.json`;
  }

  /** The saved state, when there is one for this very file (same size and modification time). */
  load(stat: fs.Stats): ImportState | undefined {
    if (!fs.existsSync(this.path)) return undefined;
    const saved = JSON.parse(fs.readFileSync(this.path, 'utf8')) as ImportState;
    return saved.size === stat.size && saved.mtimeMs === stat.mtimeMs ? saved : undefined;
  }

  save(state: ImportState): void {
    // Written whole, then renamed: a kill never leaves half a state file.
    fs.writeFileSync(`${this.path}.tmp`, JSON.stringify(state));
    fs.renameSync(`${this.path}.tmp`, this.path);
  }

  remove(): void {
    fs.rmSync(this.path, { force: true });
  }
}
