/**
 * A user's own tool set for metatool/similar (`--tools`) in the end-to-end tests: 12 tools (two
 * without queries: one with none, one in OpenAI's function format), with overlapping vocabulary so
 * the lexical nearest lists mean something. Each entry as a tools file holds it.
 */
const TOOLS = [
  ['weather_now', 'Current weather conditions for a city', ['Is it raining in Oslo right now?', 'How warm is it in Rome?']],
  ['weather_week', 'Weather forecast for the next seven days in a city', ['Will it snow in Denver this week?', 'Forecast for Paris on Friday?']],
  ['air_quality', 'Air quality and pollution index for a city', ['Is the air in Delhi safe today?', 'Pollution level in Beijing?']],
  ['stock_price', 'Current stock price of a listed company', ['What is Apple trading at?', 'Price of TSLA now?']],
  ['stock_news', 'News articles about a listed company and its stock', ['Any news on Nvidia shares?', 'Why did Boeing stock drop?']],
  ['currency', 'Exchange rate between two currencies', ['How many yen for a euro?', 'USD to GBP rate?']],
  ['flights', 'Search flights between two cities by date', ['Flights from Berlin to Lisbon in May?', 'Cheapest flight to Tokyo?']],
  ['hotels', 'Find hotels in a city by price and date', ['Hotel in Vienna under 100 euros?', 'Where to stay in Madrid?']],
  ['restaurants', 'Restaurant recommendations in a city by cuisine', ['Good sushi in Lyon?', 'Vegan places in London?']],
  ['translate', 'Translate text between languages', ['How do I say thank you in Korean?', 'Translate "good morning" to Italian']],
  ['dictionary', 'Definitions and synonyms of an English word', []],
  { type: 'function', function: { name: 'calculator', description: 'Evaluate arithmetic expressions' } },
] as const;

export const OWN_TOOL_ENTRIES: readonly object[] = TOOLS.map((t) => (Array.isArray(t) ? { name: t[0], description: t[1], queries: t[2] } : t));
