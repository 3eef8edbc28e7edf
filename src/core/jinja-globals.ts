/**
 * The Jinja engine's own globals (@huggingface/jinja's `setupGlobals`, which `Template.render`
 * calls and the package does not export), for the places that run a template through their own
 * `Environment` to bound it: harm persona templates (datasets/harm, in a worker thread) and an
 * `http` target's body checked at load (config/). `range` is the caller's, bounded its own way;
 * `strftime_now` is left out everywhere: a template rendering the clock would render differently
 * each run (and defeat the call cache). Plain data, no import, so a worker thread can load it alone.
 */
export function jinjaGlobals(range: (start: number, stop?: number, step?: number) => number[]): Readonly<Record<string, unknown>> {
  return {
    false: false,
    true: true,
    none: null,
    False: false,
    True: true,
    None: null,
    raise_exception: (message: unknown) => {
      throw new Error(String(message));
    },
    range,
  };
}
