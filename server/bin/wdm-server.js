#!/usr/bin/env node
// The server's command. It exists before the build so that npm links it on the first install (npm
// links a workspace's bin only when its target exists then); the compiled server is loaded from dist/.
const path = require('node:path');
const fs = require('node:fs');

const main = path.join(__dirname, '..', 'dist', 'main.js');
if (!fs.existsSync(main)) {
	console.error(`wdm-server: ${main} is missing: build the server first (npm run build)`);
	process.exit(1);
}
require(main);
