/**
 * JSON column helpers. Two conventions, chosen per column so every record round-trips:
 * - "nullable" columns (output, error, score): JS null/undefined ↔ SQL NULL ↔ JS null;
 * - "optional" columns (tools, hints, target, request): JS undefined ↔ SQL NULL ↔ JS undefined,
 *   while a JS null is stored as the text `null` and read back as null.
 * Values are stored as `JSON.stringify` text: `undefined` object properties are dropped, as in
 * any JSON file, so they read back as absent.
 */

/** null/undefined → SQL NULL, anything else → JSON text. */
export const nullableToJson = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** undefined → SQL NULL, anything else (null included) → JSON text. */
export const optionalToJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** SQL NULL → null; the caller names the type it stored. */
export const nullableFromJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** SQL NULL → undefined; the caller names the type it stored. */
export const optionalFromJson = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));

/** For NOT NULL JSON columns. */
export const fromJson = <T>(text: string): T => JSON.parse(text) as T;
