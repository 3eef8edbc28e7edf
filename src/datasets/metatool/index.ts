export * from './dataset.js';
export { upstreamToolDescriptions, type PluginInfo } from './descriptions.js';
export { NEIGHBOURS_KEPT, nearestNeighbours } from './neighbours.js';
export { pythonStrListRepr, pythonStrRepr } from './python-repr.js';
export { buildToolEPool, compareNames, parseToolECsv, readToolEPool, type ToolEPool, type ToolERow } from './toole.js';
export { USER_TOOLS_EXPECTED, loadUserTools, parseUserTools, userCatalogue, type UserTool } from './user-tools.js';
