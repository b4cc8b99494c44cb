const { src, dest, task } = require('gulp');

// Copy node and credential icons next to the compiled .js files, keeping paths:
//   nodes/Wdm/wdm.svg        -> dist/nodes/Wdm/wdm.svg
//   credentials/wdm.svg      -> dist/credentials/wdm.svg
// encoding: false is required on gulp 5, which otherwise re-encodes files as UTF-8
// and corrupts binary icons (PNG).
function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

task('build:icons', copyIcons);
