import { Option } from 'commander';
import { CONFIG_ENV, DEFAULT_CONFIG_FILE, locateConfigFile } from '../config/config-location.js';
import type { AssayConfig } from '../config/load-config.js';
import { resolveModelArgument } from '../config/model-argument.js';

/** `--config FILE`: the config file declaring models by name (else ASSAY_CONFIG, else ./assay.yaml). */
export const configOption = (): Option =>
  new Option('--config <file>', `config file declaring models and applications by name (default: $${CONFIG_ENV}, else ${DEFAULT_CONFIG_FILE} in the working directory, if there is one; docs/targets.md)`);

/**
 * The command's config file, read and checked (every problem one line naming file:line and the
 * field), or undefined when there is none: `provider:model` ids need no file. The JMESPath
 * parser and the body template check are the `http` target's, loaded only when a file is there;
 * each body is checked here, once (its target does not check it again).
 */
export async function configFrom(flag: string | undefined): Promise<AssayConfig | undefined> {
  const location = locateConfigFile(process.cwd(), flag, process.env);
  if (!location) return undefined;
  // The loader (its schemas: zod, YAML) too: a run without a config file does not load it.
  const [{ loadConfig }, { jmesPathProblem }, { bodyTemplateProblem }] = await Promise.all([import('../config/load-config.js'), import('../models/providers/http/answer-path.js'), import('../models/providers/http/body-template.js')]);
  return loadConfig(location, { checkJmesPath: jmesPathProblem, checkBodyTemplate: bodyTemplateProblem });
}

/**
 * Checks a model argument (`-m`, `--judge`, `--user-model`): a `provider:model` id as always, or
 * a name the config file declares (an unknown name lists the declared ones). The name is the id.
 */
export function checkModelArgument(argument: string, config: AssayConfig | undefined): string {
  resolveModelArgument(argument, config);
  return argument;
}
