import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity from a raw row (column names, driver values) as TypeORM itself would load it: each
 * column through the driver's own conversion (SQLite's UTC text to Date, and so on). For rows a
 * raw `UPDATE ... RETURNING` answered, which would otherwise need a second read.
 */
export function hydrateRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  raw: Record<string, unknown>,
): T {
  const metadata = manager.connection.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns)
    column.setEntityValue(
      entity,
      manager.connection.driver.prepareHydratedValue(raw[column.databaseName], column),
    );
  return entity;
}
