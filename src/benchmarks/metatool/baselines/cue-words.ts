/**
 * Cue words for the lexical baseline's yes/no answer ("does this query need an external tool?").
 * Each entry suggests live or external data, or an action in the world: prices, weather, news,
 * bookings, web look-ups, file conversion. The list was written from general knowledge of what
 * tools do, not fitted to any benchmark's labels, so the baseline stays an honest reference point.
 * Entries are matched as whole lowercase words (a plural in the query matches the singular cue); a multi-word entry
 * ("exchange rate", "real-time") must appear as consecutive words.
 */
export const EXTERNAL_DATA_CUES: readonly string[] = [
  // time-sensitive information
  'current', 'currently', 'latest', 'recent', 'recently', 'today', 'tonight', 'tomorrow', 'now', 'live', 'real-time', 'up-to-date', 'trending',
  // data that lives outside the model
  'price', 'stock', 'news', 'weather', 'forecast', 'exchange rate', 'traffic', 'score', 'schedule', 'nearby', 'near me', 'availability',
  // actions and look-ups
  'book', 'booking', 'reserve', 'reservation', 'buy', 'order', 'ticket', 'flight', 'hotel',
  'search', 'find', 'look up', 'lookup', 'check', 'website', 'online', 'url', 'link',
  // specialised inputs/outputs
  'convert', 'translate', 'download', 'upload', 'pdf',
];
