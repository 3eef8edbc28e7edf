export { openSqliteStore, SqliteStore } from './sqlite-store.js';
export { MIGRATIONS, LATEST_SCHEMA_VERSION, type Migration } from './migrations.js';
