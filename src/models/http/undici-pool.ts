import { createRequire } from 'node:module';
import type { Pool as UndiciPool } from 'undici';

/**
 * undici's `Pool`, loaded without the rest of undici. `import { Pool } from 'undici'` runs
 * undici's index, which loads fetch, WebSocket, cookies, EventSource, the mock agents and the
 * cache stores too: 111 modules and ~9 MB of a run's memory, none of which a provider uses (it
 * only `dispatch`es: `post.ts`). The pool's own module is the same class the index exports
 * (`undici-pool.test.ts` holds them equal, so an undici release that moves it fails that test).
 * undici has no `exports` map, so the path is reachable; it is internal, hence the test.
 */
export const Pool = createRequire(import.meta.url)('undici/lib/dispatcher/pool') as typeof UndiciPool;
