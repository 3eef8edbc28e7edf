export { openPostgresStore, PostgresStore } from './postgres-store.js';
export { MIGRATIONS as POSTGRES_MIGRATIONS, LATEST_SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION } from './migrations.js';
