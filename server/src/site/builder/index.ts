import type { Route } from '../../http/route';
import { designRoutes } from './design';
import { editorRoutes } from './editor';

/** The page builder: `builder/v1`, `builder/v1/documents`, `builder/v1/feedback`, `builder-ai/v1`. */
export const builderRoutes: Route[] = [...designRoutes, ...editorRoutes];
