export { createHttpTarget, type HttpTargetOptions } from './http-target.js';
export { bodyTemplateProblem, BODY_TEMPLATE_VARIABLES, compileBodyTemplate, exampleBodyContext, type BodyTemplate, type CompileBodyOptions } from './body-template.js';
export { compileAnswerPath, jmesPathProblem, type AnswerPath } from './answer-path.js';
