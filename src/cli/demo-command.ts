import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEMO_HELP, parseDemoOptions } from '../demo/options.js';
import { runDemo } from '../demo/run-demo.js';
import { inheritedEnvironment } from '../config.js';

/** How this process was started, so the child service runs the same way (built JS, or source under tsx). */
function serverCommand(): string[] {
  const built = fileURLToPath(new URL('./cli.js', import.meta.url));
  if (fs.existsSync(built)) return [process.execPath, built];
  return [process.execPath, '--import', 'tsx', fileURLToPath(new URL('./cli.ts', import.meta.url))];
}

/** `searchloop demo`: see src/demo/ and docs/demo.md. */
export async function runDemoCommand(argv: string[]): Promise<number> {
  const options = parseDemoOptions(argv);
  if (options.help) {
    process.stdout.write(DEMO_HELP);
    return 0;
  }
  const tty = process.stdout.isTTY;
  let lastProgress = 0;
  const interrupted = new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
  const summary = await runDemo(options, {
    print: (line) => process.stdout.write(`${tty ? '\r\x1b[2K' : ''}${line}\n`),
    progress: (line) => {
      // One line, rewritten in place: cut to the terminal's width so it never wraps.
      if (tty) process.stdout.write(`\r\x1b[2K${line.slice(0, Math.max(20, (process.stdout.columns ?? 200) - 1))}`);
      else if (Date.now() - lastProgress >= 15_000) {
        lastProgress = Date.now();
        process.stdout.write(`${line}\n`);
      }
    },
    serverCommand: serverCommand(),
    serverEnvironment: inheritedEnvironment(),
    interrupted,
  });
  return summary.lastError && summary.sessions === 0 ? 1 : 0;
}
