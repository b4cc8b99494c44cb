import type { Route } from '../http/route';

/** Payment requests and instant-payment-key buttons. */
export const paymentRoutes: Route[] = [];
