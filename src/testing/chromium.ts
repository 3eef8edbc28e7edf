import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it); `ASSAY_CHROMIUM` names another. */
export const CHROMIUM_PATH = process.env['ASSAY_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * Flags that work on machines with no network but the package registries: without the
 * background-networking ones Chromium keeps trying to reach Google's hosts at every start.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/**
 * Why browser tests cannot run here, or undefined when they can. Under CI a missing Chromium is
 * a failure (the test says so), never a skip: `.ci/run` installs it.
 */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" (or set ASSAY_CHROMIUM)`;
}

/** A headless Chromium with a fresh profile, removed on close. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'assay-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: options.viewport ?? { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Watches a page for what a report or viewer page must never do with untrusted data: open a
 * dialog (dismissed and kept), throw a script error, or make a request (every URL kept, to be
 * checked against the page's own).
 */
export function watchPage(page: Page): { dialogs: string[]; errors: string[]; requests: string[] } {
  const seen = { dialogs: [] as string[], errors: [] as string[], requests: [] as string[] };
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('request', (r) => seen.requests.push(r.url()));
  return seen;
}
