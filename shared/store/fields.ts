/** Every field of T, named once: a record so that the compiler refuses a field left out. */
export type FieldNames<T> = { readonly [K in keyof T]-?: true };

/**
 * The fields of a stored item as the record type they were written from,
 * named one by one (keys, `entity` and `ttl` stay behind); a field the item
 * lacks reads as null. The casts live here, once, not in every repository.
 */
export function fieldsOf<T>(item: Record<string, unknown>, names: FieldNames<T>): T {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(names)) record[name] = item[name] ?? null;
  return record as T;
}
