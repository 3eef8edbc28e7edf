// Loaded with `node --import` into an assay CLI process that `npm run bench:compare` measures: at
// exit it writes the whole process's CPU time and peak RSS to the file named by
// ASSAY_BENCH_USAGE_FILE. The CLI is measured as a user starts it (start-up, build, run, summary),
// and a ref built from an older tree needs no code of its own to be measured.
import { writeFileSync } from 'node:fs';

const file = process.env['ASSAY_BENCH_USAGE_FILE'];
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssMB: usage.maxRSS / 1024 }));
  });
}
