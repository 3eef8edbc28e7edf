// The loopback OpenAI server is shipped with the demo (src/demo/openai-wire.ts); tests reach it
// here, with the fault plans that only tests use.
export * from '../demo/openai-wire.js';
export { faultPlan, plannedFault, type Fault, type FaultContext, type FaultPlanOptions, type FaultType } from './fault-plan.js';
