import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../shared/operations';
import type { Resource } from '../shared/resources';
import { siteListRouting, siteReturnAllFields, siteRouting } from '../shared/site';
import { pagedSearchField, toBody } from './editorFields';

const BASE = '/builder/v1/checklist';

const positionField: INodeProperties = {
	displayName: 'Step Position',
	name: 'checklistPosition',
	type: 'number',
	required: true,
	default: 1,
	typeOptions: { minValue: 1 },
	description: 'Position of the step in the checklist (1 for the first)',
};

const operations: Operation[] = [
	{
		name: 'Get Many',
		value: 'getChecklist',
		action: 'Get the checklist',
		description: 'Get the checklist steps with their state, page by page',
		routing: siteListRouting(BASE),
		fields: [...siteReturnAllFields, pagedSearchField],
	},
	{
		name: 'Get Item',
		value: 'getChecklistItem',
		action: 'Get a checklist item',
		description: 'Get one checklist entry by its position',
		routing: siteRouting('GET', `${BASE}/{id}`, { id: 'checklistPosition' }),
		fields: [positionField],
	},
	{
		name: 'Get Progress',
		value: 'getChecklistProgress',
		action: 'Get the checklist progress',
		description: "Get the credential user's checklist progress with how many steps are completed",
		routing: siteRouting('GET', `${BASE}/user-progress`),
	},
	{
		name: 'Get Step',
		value: 'getChecklistStep',
		action: 'Get a checklist step',
		description: 'Get one step by its position',
		routing: siteRouting('GET', `${BASE}/steps/{id}`, { id: 'checklistPosition' }),
		fields: [positionField],
	},
	{
		name: 'Get Steps',
		value: 'getChecklistSteps',
		action: 'Get the checklist steps',
		description: 'Get every step with its state',
		routing: siteRouting('GET', `${BASE}/steps`),
	},
	{
		name: 'Update Progress',
		value: 'updateChecklistProgress',
		action: 'Update the checklist progress',
		description: "Update the credential user's checklist progress",
		routing: siteRouting('POST', `${BASE}/user-progress`),
		fields: [
			{
				displayName: 'Progress',
				name: 'checklistProgress',
				type: 'collection',
				placeholder: 'Add Field',
				default: {},
				options: [
					{ displayName: 'Editor Visit Count', name: 'editorVisitCount', type: 'number', typeOptions: { minValue: 0 }, default: 0, routing: toBody('editor_visit_count') },
					{
						displayName: 'First Closed in Editor',
						name: 'firstClosed',
						type: 'boolean',
						default: false,
						description: 'Whether the checklist was first closed in the editor',
						routing: toBody('first_closed_checklist_in_editor'),
					},
					{ displayName: 'Minimized', name: 'isPopupMinimized', type: 'boolean', default: false, description: 'Whether the checklist pop-up is minimized', routing: toBody('is_popup_minimized') },
					{
						displayName: 'Last Opened (Unix Time)',
						name: 'lastOpened',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description: 'When the checklist was last opened, in seconds since 1970',
						routing: toBody('last_opened_timestamp'),
					},
				],
			},
		],
	},
	{
		name: 'Update Step',
		value: 'updateChecklistStep',
		action: 'Update a checklist step',
		description: 'Mark a step completed or not (administrators)',
		routing: siteRouting('POST', `${BASE}/steps/{id}`, { id: 'checklistStepId' }),
		fields: [
			{
				displayName: 'Step ID',
				name: 'checklistStepId',
				type: 'options',
				options: [
					{ name: 'Add Logo', value: 'add_logo' },
					{ name: 'Assign Homepage', value: 'assign_homepage' },
					{ name: 'Create Pages', value: 'create_pages' },
					{ name: 'Set Fonts and Colors', value: 'set_fonts_and_colors' },
					{ name: 'Set Up Header', value: 'setup_header' },
				],
				default: 'add_logo',
				description: 'The step to mark',
			},
			{ displayName: 'Marked Completed', name: 'isMarkedCompleted', type: 'boolean', default: true, description: 'Whether the step is marked completed', routing: toBody('is_marked_completed') },
			{
				displayName: 'Completed for Good',
				name: 'isImmutableCompleted',
				type: 'boolean',
				default: false,
				description: 'Whether the completion stays even if the mark is removed later',
				routing: toBody('is_immutable_completed'),
			},
		],
	},
];

export const checklist: Resource = { name: 'Checklist', value: 'checklist', operations };
