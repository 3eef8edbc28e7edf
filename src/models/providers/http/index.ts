export { createHttpTarget, type HttpTargetOptions } from './http-target.js';
export { compileBodyTemplate, type BodyTemplate } from './body-template.js';
export { compileAnswerPath, jmesPathProblem, type AnswerPath } from './answer-path.js';
