import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The network's 20 label colors by their index, as the gateway's `color` takes it; the hex value is
 * what `colorHex` answers (the server's `LABEL_COLORS`; the label node test checks they agree).
 */
const COLORS = [
	['Red', '#FF9484'],
	['Blue', '#64C4FF'],
	['Yellow', '#FED428'],
	['Purple', '#DFAEF0'],
	['Gray', '#9AB6C1'],
	['Turquoise', '#56CCB4'],
	['Pink', '#FE9DFE'],
	['Mustard', '#D3A91F'],
	['Indigo', '#6F7BCF'],
	['Lime', '#D8E651'],
	['Cyan', '#01D0E2'],
	['Light Pink', '#FFC5C7'],
	['Sage', '#92CEAC'],
	['Crimson', '#F64847'],
	['Sky Blue', '#00A1F2'],
	['Green', '#83E421'],
	['Orange', '#FFAE07'],
	['Light Blue', '#B4EBFF'],
	['Periwinkle', '#9BA6FF'],
	['Violet', '#9568CF'],
] as const;

/** The color list of the Color field, alphabetical as n8n lists options. */
export const labelColorOptions: INodePropertyOptions[] = COLORS.map(([name, hex], value) => ({ name, value, description: `Color ${value}, ${hex}` })).sort(
	(a, b) => a.name.localeCompare(b.name),
);
