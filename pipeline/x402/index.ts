export * from './networks.ts';
export * from './payment-request.ts';
export * from './prices.ts';
export * from './terms.ts';
