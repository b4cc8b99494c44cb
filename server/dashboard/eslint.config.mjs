// The dashboard runs in the browser: the repository's config, for its .tsx files too, with browser globals.
import globals from 'globals';
import tseslint from 'typescript-eslint';
import js from '@eslint/js';
import dev from '../../eslint.dev.config.mjs';

export default [
	...dev,
	...tseslint.config({
		files: ['**/*.tsx'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: { '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }] },
	}),
	{ files: ['src/**/*.ts', 'src/**/*.tsx'], languageOptions: { globals: { ...globals.browser } } },
];
