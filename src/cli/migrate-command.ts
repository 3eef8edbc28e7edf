import { Option, type Command } from 'commander';
import { InputError } from '../core/index.js';
import { copyRuns, DEFAULT_PAGE_SIZE, describeParts, type CopyOutcome } from '../store/copy/copy-runs.js';
import type { RunChecksum } from '../store/copy/run-digest.js';
import { copySuiteRuns, type SuiteRunCopy } from '../store/copy/copy-suite-runs.js';
import { openStorePair } from '../store/copy/store-pair.js';
import { redactStoreUrl } from '../store/store-url.js';
import { EXIT, jsonOption, unusedDbOption } from './shared.js';
import { printErr, printOut } from './terminal.js';

interface MigrateFlags {
  from: string;
  to: string;
  run?: string[];
  replace?: boolean;
  json?: boolean;
  pageSize?: string;
}

/** `assay migrate --from <store> --to <store>`: copies runs between stores, each checked by counts and checksum. */
export function registerMigrateCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('migrate')
    .description('copy runs from one store to another (SQLite ↔ PostgreSQL, or SQLite → SQLite), each checked by its counts and checksum read back from the target')
    .requiredOption('--from <store>', 'the store to copy from: a SQLite file (path.db or sqlite:path.db) or postgres://user@host:5432/db')
    .requiredOption('--to <store>', 'the store to copy to (created or brought up to date as --db would be)')
    .addOption(new Option('--run <id...>', 'only these runs (ids or unique prefixes in --from); default: every run'))
    .addOption(new Option('--replace', 'a run --to holds with other content is deleted there and copied again (default: refused)'))
    .addOption(jsonOption())
    .addOption(new Option('--page-size <n>', 'samples read and written at a time').default(String(DEFAULT_PAGE_SIZE)).hideHelp())
    .addOption(unusedDbOption())
    .addHelpText(
      'after',
      `
What is copied: the run record as it is (status, times, options, engine settings, dataset
checksums, metrics facts, judge), its samples, every call (the ledger; the call cache answers
from them in the target too), results (outputs, scores, transcripts) and human reviews:
everything show, report, compare, export, rescore and resume read. Leases are not copied.

Each run is written in one transaction, ${DEFAULT_PAGE_SIZE} samples (with their calls, results and reviews)
at a time, so memory stays flat; progress goes to stderr for runs of more than one page. Then
the target's copy is read back and its checksum (sha256 over the run record, samples, calls,
results and reviews, in order, as canonical JSON) compared with the source's: on a difference
the copy is removed and the differing part named.

Per run, one line: id, counts, checksum, and
  copied          written and read back the same
  already there   the target has it with the same checksum: nothing written (so a rerun is safe)
  refused         not copied: a process is running it now (its lease is live: wait, or stop
                  it; a stale run is copied), or the target holds it with other content
                  (--replace overwrites)
  MISMATCH        read back differently: removed from the target
  failed          the target refused a record (rolled back)
Then, per suite run the copied runs are members of, its recorded gates (what \`assay show
<suite-run>\` and a \`last-passing\` baseline read): copied, already there, or none recorded
(an interrupted suite run, or one older than recorded gates). --json: \`suiteRuns\`.
Exit 0 when every run is copied or already there, 1 otherwise, 2 for a bad --from/--to (the
same store twice, a missing SQLite file, an unreachable server, a schema from a newer assay).

Example:
  assay migrate --from .assay/assay.db --to postgres://assay@db.internal:5432/assay`,
    )
    .action(async (flags: MigrateFlags) => {
      const pageSize = Number(flags.pageSize);
      if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new InputError(`--page-size must be a whole number of samples above 0, got "${flags.pageSize}"`);
      const { source, target } = await openStorePair(flags.from, flags.to);
      const outcomes: CopyOutcome[] = [];
      const suiteRuns: SuiteRunCopy[] = [];
      try {
        const onProgress = ({ runId, doing, samples }: { runId: string; doing: string; samples: number }): void => {
          if (samples >= pageSize) printErr(`migrate: ${runId}: ${doing}, ${samples} samples so far\n`);
        };
        for await (const outcome of copyRuns(source, target, { runs: flags.run ?? [], replace: Boolean(flags.replace), pageSize, onProgress })) {
          outcomes.push(outcome);
          if (!flags.json) printOut(`${outcomeLine(outcome)}\n`);
        }
        // The gates recorded by the suite runs the copied runs are members of, after the runs.
        const there = outcomes.filter((o) => o.status === 'copied' || o.status === 'already there').map((o) => o.runId);
        const runs = (await Promise.all(there.map((id) => source.getRun(id)))).filter((run) => run !== undefined);
        suiteRuns.push(...(await copySuiteRuns(source, target, runs)));
        if (!flags.json) for (const copy of suiteRuns) printOut(`suite run ${copy.suiteRun}  gates ${copy.status}\n`);
      } finally {
        await Promise.all([source.close(), target.close()]);
      }
      const tally = tallyOf(outcomes);
      if (flags.json) printOut(`${JSON.stringify({ from: redactStoreUrl(flags.from), to: redactStoreUrl(flags.to), ...tally, runs: outcomes, suiteRuns })}\n`);
      else printOut(`${tally.copied} copied, ${tally.alreadyThere} already there, ${tally.refused} refused, ${tally.mismatched} mismatched, ${tally.failed} failed (from ${redactStoreUrl(flags.from)} to ${redactStoreUrl(flags.to)})\n`);
      setExitCode(tally.refused + tally.mismatched + tally.failed === 0 ? EXIT.ok : EXIT.unexpected);
    });
}

const countsOf = (sum: RunChecksum): string => `samples ${sum.counts.samples}  calls ${sum.counts.calls}  results ${sum.counts.results}  reviews ${sum.counts.reviews}  sha256 ${sum.checksum}`;

function outcomeLine(outcome: CopyOutcome): string {
  switch (outcome.status) {
    case 'copied':
      return `${outcome.runId}  ${countsOf(outcome.checksum)}  copied${outcome.replaced ? ' (replaced the target’s)' : ''}`;
    case 'already there':
      return `${outcome.runId}  ${countsOf(outcome.checksum)}  already there`;
    case 'refused':
      return `${outcome.runId}  ${outcome.checksum ? `${countsOf(outcome.checksum)}  ` : ''}refused: ${outcome.reason}`;
    case 'mismatch':
      return `${outcome.runId}  ${countsOf(outcome.source)}  MISMATCH: the target read back other content (${describeParts(outcome.parts, outcome.source, outcome.target)}); removed from the target`;
    case 'failed':
      return `${outcome.runId}  failed: ${outcome.reason}`;
  }
}

function tallyOf(outcomes: readonly CopyOutcome[]): { copied: number; alreadyThere: number; refused: number; mismatched: number; failed: number } {
  const count = (status: CopyOutcome['status']): number => outcomes.filter((o) => o.status === status).length;
  return { copied: count('copied'), alreadyThere: count('already there'), refused: count('refused'), mismatched: count('mismatch'), failed: count('failed') };
}
