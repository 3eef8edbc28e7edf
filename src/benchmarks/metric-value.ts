// A metric's value, declared with no imports so that the report page (compiled apart for the
// browser) reads the same declaration through a type-only `import()` type.

/** A metric value: a number, null when undefined (e.g. precision with no positive answer), or a breakdown. */
export type MetricValue = number | null | { readonly [key: string]: MetricValue };
export type Metrics = Readonly<Record<string, MetricValue>>;
