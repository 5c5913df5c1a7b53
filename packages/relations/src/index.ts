export { migrateRelations } from './db/migrate.js';
export { registerKetoRoutes, type KetoRouteOptions } from './http/keto-routes.js';
export { createRelationStore, type RelationStore } from './store.js';
export type { RelationTuple, SubjectSet, TupleQuery } from './tuples/tuple.js';

/** The namespaces of this product (docs/architecture.md#relation-tuples). */
export const PRODUCT_NAMESPACES = ['organizations', 'subdivisions', 'programme'];
