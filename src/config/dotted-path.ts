// Its own file, without zod: the preflight a run does before its calls names fields this way,
// and a run whose models the file does not declare must not load the config file's schemas.

/** A path in the file as messages write it: `models.small.params.temperature`, `exec[0]`. */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : `${i === 0 ? '' : '.'}${String(step)}`)).join('');
}
