import fs from 'node:fs';

/** Lines printed as they come and, at the end, written to the run's raw-output file (committed beside its script). */
export function report(file: string): { log(line?: string): void; save(): void } {
  const lines: string[] = [];
  return {
    log(line = '') {
      console.log(line);
      lines.push(line);
    },
    save() {
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
    },
  };
}
