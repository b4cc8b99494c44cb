// Headless Chromium for browser tests: Debian's package (apt-get install chromium; .ci/run installs
// it), driven by playwright-core. Playwright's own browser download is not possible here.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.WDM_CHROMIUM ?? '/usr/bin/chromium';

/** A fresh headless browser; the flags keep Chromium off the (closed) network at start-up. */
export function launchBrowser(): Promise<Browser> {
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
