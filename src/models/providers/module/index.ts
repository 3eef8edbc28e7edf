export { createModuleTarget, type ModuleTargetOptions, type TargetFunction } from './module-target.js';
