import { redactUrlCredentials } from '../core/index.js';

/**
 * Engine settings as a run records them: the base URL's credentials hidden (`***` for the user
 * part's password and for query values named like credentials or equal to one of `isSecret`'s
 * keys), so no store, export, report or page can show them. The session that was given them
 * calls with them; one that continues the run takes them from its environment
 * (`restoreCredentials` in `models/http/base-url.ts`).
 */
export function withCredentialsHidden<E extends { readonly openaiBaseURL?: string }>(engine: E, isSecret?: (value: string) => boolean): E {
  const url = engine.openaiBaseURL;
  if (url === undefined) return engine;
  const hidden = redactUrlCredentials(url, isSecret);
  return hidden === url ? engine : { ...engine, openaiBaseURL: hidden };
}
