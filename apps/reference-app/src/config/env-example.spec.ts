import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { EnvironmentVariables } from './environment.rules';

/** .env.example lists every variable the schema validates, and no other. */
describe('.env.example', () => {
  const declared = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(EnvironmentVariables, '', true, false)
        .map((m) => m.propertyName),
    ),
  ].sort();
  const listed = [
    ...readFileSync(join(__dirname, '../../.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm),
  ]
    .map((m) => m[1])
    .sort();

  it('lists every variable the app validates at boot, and only those', () => {
    expect(declared.length).toBeGreaterThan(15);
    expect(declared).toContain('DATABASE_URL');
    expect([...new Set(listed)]).toEqual(declared);
  });
});
