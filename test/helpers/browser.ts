// Headless Chromium for browser tests: Debian's package (apt-get install chromium; scripts/test-services.sh installs
// it), driven by playwright-core. Playwright's own browser download is not possible here.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { missingService } from './services';

export const CHROMIUM = process.env.WDM_CHROMIUM ?? '/usr/bin/chromium';

/** A fresh headless browser; the flags keep Chromium off the (closed) network at start-up. */
export function launchBrowser(): Promise<Browser> {
	if (!fs.existsSync(CHROMIUM)) throw missingService(`Chromium (${CHROMIUM})`, 'chromium');
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}
