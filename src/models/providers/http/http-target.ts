import { withFields, describeError, envReferences, type GenerateRequest, type GenerateResult, InputError, resolveEnvReferences } from '../../../core/index.js';
import { endpointSecrets, basicCredentials, parseBaseURL, shownUrl } from '../../http/base-url.js';
import { httpCallError } from '../../http/call-errors.js';
import { createJsonClient } from '../../http/json-client.js';
import { createRedactor } from '../../http/redact-secrets.js';
import { parseRetryAfterMs } from '../../http/retry-after.js';
import type { GenerateOptions, ModelProvider } from '../../spec.js';
import { createSessionIds } from '../../targets/session-ids.js';
import { readText, readToolCalls, readUsage, targetResult } from '../../targets/target-answer.js';
import { excerpt, targetError } from '../../targets/target-error.js';
import { buildTargetRequest } from '../../targets/target-request.js';
import { serverErrorText } from '../openai/openai-errors.js';
import { compileAnswerPath, type AnswerPath } from './answer-path.js';
import { compileBodyTemplate } from './body-template.js';
import { targetHeaders } from './target-headers.js';

/** An application behind its own HTTP API: what the config file's `http:` declaration maps to. */
export interface HttpTargetOptions {
  /** The declared name: the provider's id (and model id everywhere). */
  readonly name: string;
  /** Where each request is POSTed (http or https; credentials in it are sent as Basic auth and never shown; `${VAR}` read when built). */
  readonly url: string;
  /** Extra request headers; values may hold `${VAR}`, read from the environment when built and at each call. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The request body, a Jinja template rendering JSON. Variables: `messages`, `prompt`, `system`,
   * `tools`, `session`, `sample_id`, `model`, `settings`, `response_format` (`TargetRequest`).
   */
  readonly body: string;
  /**
   * The body passed `bodyTemplateProblem` already — a config file loaded with `checkBodyTemplate`
   * checked it once, at load, naming file:line — so it is not checked again here (default false).
   */
  readonly bodyChecked?: boolean;
  /** JMESPath into the JSON answer: the reply text. */
  readonly output: string;
  /** JMESPath into the JSON answer: the tool calls, `[{name, arguments}]` (optional). */
  readonly toolCalls?: string;
  /** JMESPath into the JSON answer: token counts, `{inputTokens, outputTokens}` or `{prompt_tokens, completion_tokens}` (optional). */
  readonly usage?: string;
  /**
   * Whether identical requests may be answered from the call cache. Default: true, except when the
   * body reads `session` or `sample_id` — an app that keeps the conversation itself must see every
   * turn, and a cache hit would skip one.
   */
  readonly cacheable?: boolean;
  /** Keep-alive connections to the app (default 64; set to the model's concurrency). */
  readonly connections?: number;
  /** Where `${VAR}` is read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How bad-input errors name a field of the declaration (default `<name>: <field>`): the config file gives file, line and path. */
  readonly locate?: (field: string) => string;
}

/**
 * A provider for an application with an HTTP API of its own: the body is rendered from the
 * declared template, POSTed through the same undici pool and error mapping as the chat providers
 * (so 429/5xx/401/404 are the usual kinds and Retry-After is honoured by the middleware), and
 * the reply read from the JSON answer with JMESPath. An answer that is not JSON or where `output`
 * finds nothing is a `target` error.
 */
export function createHttpTarget(options: HttpTargetOptions): ModelProvider {
  const { name } = options;
  const locate = options.locate ?? ((field: string) => `${name}: ${field}`);
  const env = options.env ?? process.env;
  // `${VAR}` in the URL is read once, here: the URL picks the connection pool for the whole run.
  const urlVariables = envReferences(options.url, locate('url'));
  const parsed = parseTargetUrl(options.url, resolveEnvReferences(options.url, env, locate('url')), locate('url'));
  const template = compileBodyTemplate(options.body, locate('body'), { model: name, ...(options.bodyChecked === true ? { checked: true } : {}) });
  const output = compileAnswerPath(options.output, locate('output'));
  const toolCalls = options.toolCalls !== undefined ? compileAnswerPath(options.toolCalls, locate('toolCalls')) : undefined;
  const usage = options.usage !== undefined ? compileAnswerPath(options.usage, locate('usage')) : undefined;

  const secrets: string[] = [...endpointSecrets(parsed, undefined), ...urlVariables.map((variable) => env[variable] ?? '')];
  let redact = createRedactor(secrets);
  const headers = targetHeaders(options.headers ?? {}, env, (header) => locate(`headers.${header}`), (fresh) => {
    secrets.push(...fresh);
    redact = createRedactor(secrets);
  });
  const basic = basicCredentials(parsed);
  const path = `${parsed.pathname}${parsed.search}`;
  const url = redact(shownUrl(parsed.origin, path));
  const client = createJsonClient({ origin: parsed.origin, headers: {}, redact: (text) => redact(text), label: name, ...(options.connections !== undefined ? { connections: options.connections } : {}) });
  const sessions = createSessionIds();

  /** This call's headers: the declared ones as the environment says now, with Basic auth from the URL unless an Authorization is declared. */
  function callHeaders(): Readonly<Record<string, string>> {
    const declared = headers.current();
    return basic === undefined || declared.authorization !== undefined ? declared : withFields(declared, { authorization: `Basic ${basic}` });
  }

  async function generate(request: GenerateRequest, options: GenerateOptions): Promise<GenerateResult> {
    const { sampleId } = options;
    // The session is made only for a template that reads it (a sha256 per call otherwise wasted).
    const variables = buildTargetRequest(name, request, template.perSample ? sessions(sampleId) : '', sampleId);
    let payload: string;
    try {
      payload = template.render(variables);
    } catch (error) {
      throw targetError(name, `the body template did not render JSON for this request: ${describeError(error)}`, redact);
    }
    let sent: Readonly<Record<string, string>>;
    try {
      sent = callHeaders();
    } catch (error) {
      throw targetError(name, describeError(error), redact);
    }
    // The middleware's `abort` when given: its signal is then never made (see `AttemptAbort`).
    const response = await client.post(path, payload, options.abort ?? options.signal, url, sent);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw httpCallError(response.statusCode, url, response.text, serverErrorText(response.text), parseRetryAfterMs(response.headers));
    }
    let answer: unknown;
    try {
      answer = JSON.parse(response.text);
    } catch {
      throw targetError(name, `HTTP ${response.statusCode} answer from POST ${url} is not JSON: ${excerpt(response.text)}`, redact);
    }
    return readAnswer(answer);
  }

  /** The reply, tool calls and usage the declared paths find in a JSON answer. */
  function readAnswer(answer: unknown): GenerateResult {
    const found = (path: AnswerPath): unknown => {
      try {
        return path.find(answer);
      } catch (error) {
        throw targetError(name, `JMESPath "${path.expression}" failed on the answer: ${describeError(error)}`, redact);
      }
    };
    const calls = toolCalls ? readToolCalls(found(toolCalls)) : ({ ok: true, value: [] } as const);
    if (!calls.ok) throw targetError(name, `${calls.problem} (toolCalls: "${toolCalls?.expression}")`, redact);
    const text = readText(found(output), calls.value.length > 0, `output "${output.expression}"`);
    if (!text.ok) throw targetError(name, `${text.problem} in the answer: ${excerpt(JSON.stringify(answer))}`, redact);
    return targetResult(text.value, calls.value, usage ? readUsage(found(usage)) : {}, answer);
  }

  return {
    specVersion: 'v1',
    id: name,
    cacheable: options.cacheable ?? !template.perSample,
    // Read by the middleware when it is built: the values known then (a value that appears later
    // is still scrubbed from this target's own answers and errors by `redact`).
    secrets,
    generate,
    close: () => client.close(),
  };
}

/** The URL with its variables resolved, parsed; a refusal quotes it as written, so no variable's value is shown. */
function parseTargetUrl(written: string, resolved: string, where: string): URL {
  try {
    return parseBaseURL(where, resolved, 'http://127.0.0.1:8080/chat');
  } catch (error) {
    if (resolved === written || !(error instanceof InputError)) throw error;
    throw new InputError(`${where} "${written}" (with its variables) is not an http(s) URL`);
  }
}
