// WordPress's contexts (`view`, `embed`, `edit`): the `context` parameter of a request, and which
// contexts show each field of an item schema. Below the parameters, the views and the item schemas.

export const CONTEXTS = ['view', 'embed', 'edit'] as const;
export type Context = (typeof CONTEXTS)[number];

export type Contexts = readonly Context[];
export const ALL: Contexts = ['view', 'embed', 'edit'];
export const VIEW_EDIT: Contexts = ['view', 'edit'];
export const EDIT: Contexts = ['edit'];

/** Which contexts show each field (and sub-field), as WordPress's item schemas say; `_links` always shows. */
export type ContextTable = Record<string, Contexts | { self: Contexts; fields: Record<string, Contexts> }>;
