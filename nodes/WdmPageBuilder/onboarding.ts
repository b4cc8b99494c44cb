import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { pagedSearchField, toBody } from './editorFields';

const BASE = '/builder/v1/onboarding';

const STEPS = [
	{ name: 'Building For', value: 'building_for' },
	{ name: 'Experience Level', value: 'experience_level' },
	{ name: 'Site About', value: 'site_about' },
	{ name: 'Site Features', value: 'site_features' },
	{ name: 'Theme Selection', value: 'theme_selection' },
];

const listEntry = (displayName: string, name: string, property: string, placeholder: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	placeholder,
	description: 'Values separated by commas',
	routing: toBody(property),
});

const operations: Operation[] = [
	{
		name: 'Get Choices',
		value: 'getOnboardingChoices',
		action: 'Get the onboarding choices',
		description: "Get the credential user's answers to the onboarding wizard",
		routing: siteRouting('GET', `${BASE}/user-choices`),
	},
	{
		name: 'Get Many Steps',
		value: 'getOnboardingSteps',
		action: 'Get the onboarding steps',
		description: 'Get the steps of the onboarding wizard with whether the credential user completed each',
		routing: siteListRouting(BASE),
		fields: [...siteReturnAllFields, pagedSearchField],
	},
	{
		name: 'Get Pro Install Screen',
		value: 'getProInstallScreen',
		action: 'Get the pro install screen',
		description: 'Whether the wizard shows its Pro install screen, with the Pro plugin state',
		routing: siteRouting('GET', `${BASE}/pro-install-screen`),
	},
	{
		name: 'Get Pro Install Status',
		value: 'getProInstallStatus',
		action: 'Get the pro plugin install status',
		description: 'Get whether the Pro plugin is installed and active',
		routing: siteRouting('GET', `${BASE}/install-pro`),
	},
	{
		name: 'Get Progress',
		value: 'getOnboardingProgress',
		action: 'Get the onboarding progress',
		description: "Get the credential user's progress through the wizard",
		routing: siteRouting('GET', `${BASE}/user-progress`),
	},
	{
		name: 'Get Theme Install Status',
		value: 'getThemeInstallStatus',
		action: 'Get the theme install status',
		description: 'Get the state of the theme chosen in the wizard and the active theme',
		routing: siteRouting('GET', `${BASE}/install-theme`),
	},
	{
		name: 'Install Pro',
		value: 'installPro',
		action: 'Install the pro plugin',
		description: 'Install and activate the Pro plugin (administrators)',
		routing: siteRouting('POST', `${BASE}/install-pro`),
	},
	{
		name: 'Install Theme',
		value: 'installTheme',
		action: 'Install the chosen theme',
		description: 'Install and activate the theme chosen in the wizard, or its default (administrators)',
		routing: siteRouting('POST', `${BASE}/install-theme`),
	},
	{
		name: 'Opt In to V4',
		value: 'optInV4',
		action: 'Opt in to the v4 editor',
		description: "Opt the site in to the builder's v4 editor (administrators)",
		routing: siteRouting('POST', '/builder/v1/operations/opt-in-v4'),
	},
	{
		name: 'Update Choices',
		value: 'updateOnboardingChoices',
		action: 'Update the onboarding choices',
		description: "Update the credential user's answers (those given; the others stay)",
		routing: siteRouting('POST', `${BASE}/user-choices`),
		fields: [
			{
				displayName: 'Choices',
				name: 'onboardingChoices',
				type: 'collection',
				placeholder: 'Add Choice',
				default: {},
				options: [
					{
						displayName: 'Building For',
						name: 'buildingFor',
						type: 'options',
						options: [
							{ name: 'A Business', value: 'business' },
							{ name: 'A Client', value: 'client' },
							{ name: 'Myself', value: 'myself' },
						],
						default: 'myself',
						routing: toBody('building_for'),
					},
					{
						displayName: 'Experience Level',
						name: 'experienceLevel',
						type: 'options',
						options: [
							{ name: 'Advanced', value: 'advanced' },
							{ name: 'Beginner', value: 'beginner' },
							{ name: 'Intermediate', value: 'intermediate' },
						],
						default: 'beginner',
						routing: toBody('experience_level'),
					},
					listEntry('Site About', 'siteAbout', 'site_about', 'e.g. shop, blog'),
					listEntry('Site Features', 'siteFeatures', 'site_features', 'e.g. forms, gallery'),
					{
						displayName: 'Theme',
						name: 'themeSelection',
						type: 'options',
						options: [
							{ name: 'Hello Biz', value: 'hello-biz' },
							{ name: 'Hello Builder', value: 'hello-builder' },
						],
						default: 'hello-builder',
						description: 'The theme Install Theme installs',
						routing: toBody('theme_selection'),
					},
				],
			},
		],
	},
	{
		name: 'Update Progress',
		value: 'updateOnboardingProgress',
		action: 'Update the onboarding progress',
		description: "Update the credential user's progress: current step, a step completed, how the wizard was left",
		routing: siteRouting('POST', `${BASE}/user-progress`),
		fields: [
			{
				displayName: 'Progress',
				name: 'onboardingProgress',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					{ displayName: 'Complete Step', name: 'completeStep', type: 'options', options: STEPS, default: 'building_for', description: 'A step to mark completed', routing: toBody('complete_step') },
					{ displayName: 'Current Step', name: 'currentStep', type: 'options', options: STEPS, default: 'building_for', routing: toBody('current_step') },
					{
						displayName: 'Exit Type',
						name: 'exitType',
						type: 'options',
						options: [
							{ name: 'Unexpected', value: 'unexpected' },
							{ name: 'User Exit', value: 'user_exit' },
						],
						default: 'user_exit',
						description: 'How the wizard was left',
						routing: toBody('exit_type'),
					},
				],
			},
		],
	},
];

export const onboarding: Resource = { name: 'Onboarding', value: 'onboarding', operations };
