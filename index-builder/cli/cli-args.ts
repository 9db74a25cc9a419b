/**
 * How every command-line entry of the builder reads its flags: `node:util` parseArgs (strict), `--help`/`-h` answered
 * with the usage on stdout and exit code 0, a wrong flag or value with the reason and the usage on stderr and exit
 * code 2, any other failure with its message and exit code 1.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A flag the command does not take, or a value it cannot use: the caller's mistake, answered with exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--help` was asked for. */
export class HelpRequested extends Error {
  constructor() {
    super('help');
    this.name = 'HelpRequested';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs with --help added, every parse error turned into a UsageError. Positionals are refused unless
 * `allowPositionals` is set.
 */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, allowPositionals = false) {
  const config = {
    args: [...argv],
    options: { ...options, help: { type: 'boolean', short: 'h' } } as O,
    strict: true as const,
    allowPositionals: true as const,
  };
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested();
  if (!allowPositionals && parsed.positionals.length)
    throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
  return parsed;
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const consoleIo: CliIo = { out: (t) => console.log(t), err: (t) => console.error(t) };

/** Runs a command and turns what it threw into an exit code (0, 1 or 2), printing the usage where it helps. */
export async function runWithUsage(
  usage: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: a command either returns its exit code or nothing (0)
  run: () => Promise<number | void>,
  io: CliIo = consoleIo,
): Promise<number> {
  try {
    return (await run()) ?? 0;
  } catch (err) {
    if (err instanceof HelpRequested) {
      io.out(usage);
      return 0;
    }
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${usage}`);
      return 2;
    }
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  }
}
