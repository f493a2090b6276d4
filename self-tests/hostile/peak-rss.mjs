// Preloaded (node --import) into the bin's process by the hostile self-tests: at exit, writes the
// process's peak resident set size in bytes to HOSTILE_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.HOSTILE_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
