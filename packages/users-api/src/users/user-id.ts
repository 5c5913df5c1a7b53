/** A person's or an invitation's id as the Users API accepts it in a path or query (http/validation.ts). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
