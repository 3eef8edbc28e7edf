export { createExecTarget, DEFAULT_EXEC_TIMEOUT_MS, type ExecTargetOptions } from './exec-target.js';
