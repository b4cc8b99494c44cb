// Mirrors the config exported by `@n8n/node-cli/eslint` (what n8n-nodes-starter uses),
// without pulling @n8n/node-cli itself (it drags in @n8n/ai-node-sdk -> langchain ->
// n8n-workflow@latest -> isolated-vm, which needs Node >= 24).
// Community rules apply only to the n8n package (nodes/, credentials/, package.json);
// server/ and test/ get a plain, non-type-aware TypeScript config.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const communityRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	{
		ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'docs/**'],
	},

	// Every TS/JS file: plain recommended rules, no type information needed.
	{
		files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		rules: {
			'prefer-spread': 'off',
			// `const { a, ...rest } = x` is how a field is dropped from a copy.
			'@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
		},
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { globals: { ...globals.node } },
	},

	// The community node package itself: same rule set as @n8n/node-cli/eslint.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { 'no-console': 'error' },
	},
	{
		files: ['package.json'],
		extends: [communityRecommended],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},

	// server/ and test/ are not part of the published n8n package.
	{
		files: ['server/**/*.ts', 'test/**/*.ts'],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
	},
	// Tests read JSON answers whose shape each assertion spells out.
	{
		files: ['test/**/*.ts'],
		rules: { '@typescript-eslint/no-explicit-any': 'off' },
	},
);
