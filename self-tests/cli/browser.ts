// A real browser for the report self-tests, from the lockfile alone. @sparticuz/chromium ships a
// headless Chromium inside its npm package (brotli-compressed), with the NSS and expat libraries
// it links and a font, so `npm ci` on a machine with nothing but Node brings it: no apt, no
// download, no install script. Each launch unpacks it into a fresh folder of its own and removes it
// after: the package's default spot, /tmp/chromium, is shared by every run and project on the
// machine, and a half-written or other version found there would be used as is.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';

const PACKAGE = '@sparticuz/chromium';

export interface BundledBrowser {
  browser: Browser;
  /** The unpacked binary, inside `dir`. */
  executablePath: string;
  /** The private folder holding the binary, its libraries and fonts. */
  dir: string;
  /** The package's version: its major is the Chromium major it ships. */
  packageVersion: string;
  close(): Promise<void>;
}

/** The package's own folder, or a one-line reason why the bundled browser cannot be had here. */
function packageDir(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`the bundled browser (${PACKAGE}) is built for Linux x64, not ${process.platform} ${process.arch}`);
  try {
    // Its exports name only the entry point, build/index.js.
    return dirname(dirname(createRequire(import.meta.url).resolve(PACKAGE)));
  } catch {
    throw new Error(
      `the bundled browser is missing: ${PACKAGE} is not installed (npm ci installs it from the lockfile)`,
    );
  }
}

/** Launches the package's Chromium headless, with its own libraries and fonts, never the system's. */
export async function launchBundledChromium(): Promise<BundledBrowser> {
  const pkg = packageDir();
  const packageVersion = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const { default: unpacker, inflate } = await import('@sparticuz/chromium');
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const bin = join(pkg, 'bin');
  // The package unpacks into os.tmpdir(), read from TMPDIR at each call: pointed at our folder for the while.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  let executablePath: string;
  try {
    // al2023.tar.br holds libnss3, libnspr4 and libexpat, so the host needs none of them.
    [executablePath] = await Promise.all([unpacker.executablePath(bin), inflate(join(bin, 'al2023.tar.br'))]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `the bundled browser could not be unpacked from ${bin}: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  // The package's fonts.conf names /tmp/fonts; ours names the folder we unpacked into.
  const fontsConf = join(dir, 'fonts.conf');
  writeFileSync(
    fontsConf,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM ` +
      `"fonts.dtd">\n<fontconfig><dir>${join(dir, 'fonts')}</dir><cachedir>${join(dir, 'fonts-cache')}</cachedir></fontconfig>\n`,
  );
  try {
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      // The package's binary is chrome-headless-shell; no sandbox (CI runs as root).
      args: [
        '--headless=shell',
        '--no-sandbox',
        '--no-zygote',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      env: { ...process.env, LD_LIBRARY_PATH: join(dir, 'al2023', 'lib'), FONTCONFIG_FILE: fontsConf },
    });
    return {
      browser,
      executablePath,
      dir,
      packageVersion,
      close: async () => {
        await browser.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `the bundled browser did not start (${executablePath}): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
  }
}

/** What a page must not do, collected as it happens: console errors and warnings, uncaught errors, any request off the file system. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:')) problems.push(`network request: ${r.url()}`);
  });
  return problems;
}

/**
 * Shared libraries mapped by a process (Linux /proc): names ending `.so` or `.so.N[.N…]`. Not
 * `/etc/ld.so.cache`, which the loader maps only while a process opens a library.
 */
export function mappedLibraries(pid: number | 'self'): Set<string> {
  const libs = new Set<string>();
  let maps = '';
  try {
    maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return libs; // the process ended since it was listed (a short-lived helper of the browser's)
  }
  for (const line of maps.split('\n')) {
    const path = line.split(/\s+/)[5];
    if (path && /\.so(\.\d+)*$/.test(basename(path))) libs.add(path);
  }
  return libs;
}

/** Processes whose executable lies inside `dir`: the browser's. */
export function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/exe`).startsWith(`${dir}/`);
      } catch {
        return false;
      }
    })
    .map(Number);
}
