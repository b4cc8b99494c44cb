// Bundles the dashboard (Preact, TypeScript) into server/dist/dashboard-ui, which the server serves at
// /dashboard/ (src/dashboard/index.ts). Run by `npm run build -w server`, and by the dashboard test.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(here, '..', 'dist', 'dashboard-ui');

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
	entryPoints: { app: path.join(here, 'src', 'main.tsx'), 'app-styles': path.join(here, 'styles.css') },
	outdir,
	bundle: true,
	format: 'esm',
	minify: true,
	sourcemap: true,
	target: ['chrome120', 'firefox120', 'safari17'],
	jsx: 'automatic',
	jsxImportSource: 'preact',
	logLevel: 'warning',
});
// One name per file for index.html: the stylesheet entry is named apart from the script's.
fs.renameSync(path.join(outdir, 'app-styles.css'), path.join(outdir, 'app.css'));
fs.renameSync(path.join(outdir, 'app-styles.css.map'), path.join(outdir, 'app.css.map'));
fs.copyFileSync(path.join(here, 'index.html'), path.join(outdir, 'index.html'));
