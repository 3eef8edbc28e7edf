import { CANARY_KEY, escapeForms, inJsonText } from './canary.js';
import { startFakeOpenAIServer, type FakeAnswer, type FakeChatRequestBody, type FakeRequestContext, type FakeServer, type Fault } from './fake-openai-server.js';

/** The password of the base URL's user part: never sent with a key, never to be stored. */
export const CANARY_URL_PASSWORD = 'pw-CANARY-url-4b1d9e';
/** A credential in the base URL's query: sent with every request, echoed back by the server. */
export const CANARY_QUERY_TOKEN = 'qt-CANARY/query+5c2a8f';

/**
 * The base URL a run against the canary server is given: a password and a credential in the
 * query; with `startCanaryServer({ keyInPath: true })` the key as the path's first segment too.
 */
export const canaryBaseUrl = (server: FakeServer): string => {
  const url = new URL(server.url);
  return `${url.protocol}//user:${CANARY_URL_PASSWORD}@${url.host}${url.pathname}?api_key=${encodeURIComponent(CANARY_QUERY_TOKEN)}`;
};

/** What the server got that it echoes: the key of the `authorization` header and the query's token. */
function echoed(ctx: FakeRequestContext): string[] {
  const key = String(ctx.headers.authorization ?? '').replace(/^Bearer /, '');
  const query = new URLSearchParams(ctx.path.split('?')[1] ?? '').get('api_key') ?? '';
  return [key, query].filter((s) => s !== '');
}

/** `value`'s JSON text with every echoed secret written in the form of its index `i` (a cycle through `escapeForms`). */
function hostileJson(value: unknown, secrets: readonly string[], i: number): string {
  let text = JSON.stringify(value);
  for (const secret of secrets) {
    const forms = Object.values(escapeForms(secret));
    text = inJsonText(text, secret, forms[i % forms.length] as string);
  }
  return text;
}

/** A tool call's `arguments` with the secrets escaped inside it (JSON in JSON: the escapes are doubled in the body). */
function innerEscaped(secrets: readonly string[], i: number): string {
  return hostileJson({ note: `echo ${secrets.join(' ')}` }, secrets, i);
}

/**
 * The shapes the server answers in, one per request in turn: an error whose message echoes the
 * secrets (400: not retried), a text answer, a tool call with them in its arguments (escaped in
 * the body, and escaped inside the arguments' own JSON), the model's name. Each writes the
 * secrets in another escape form. The judge echoes them before its verdict.
 */
function answer(body: FakeChatRequestBody, ctx: FakeRequestContext): FakeAnswer {
  const secrets = echoed(ctx);
  const i = ctx.index;
  const echo = `echo ${secrets.join(' ')}`;
  const completion = (message: Record<string, unknown>, model: string): FakeAnswer => ({
    rawText: hostileJson({ id: `c-${i}`, object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: message['tool_calls'] ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }, secrets, i),
  });
  if (body.model === 'judge') return completion({ content: `${echo}\nfail` }, `judge ${echo}`);
  switch (i % 3) {
    case 0:
      return completion({ content: echo }, String(body.model));
    case 1:
      return completion({ content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'echo', arguments: JSON.stringify({ note: echo }) } }] }, `tested ${echo}`);
    default:
      return completion({ content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: `echo`, arguments: innerEscaped(secrets, i) } }] }, String(body.model));
  }
}

/** Every third request of the model under test fails with a 400 whose message echoes the secrets. */
function faults(): (ctx: FakeRequestContext) => Fault | undefined {
  let tested = 0;
  return (ctx) => {
    if (ctx.body.model === 'judge' || ++tested % 3 !== 0) return undefined;
    const secrets = echoed(ctx);
    return { type: 'status', status: 400, body: hostileJson({ error: { message: `bad request for key ${secrets.join(' and ')}`, type: 'invalid_request_error', param: null, code: null } }, secrets, tested) };
  };
}

/** A loopback OpenAI-compatible server that echoes the key it is sent, and its URL's token, in every escape form, in errors and answers. */
/**
 * `keyInPath`: served under `/<the key>/v1` (percent-encoded: the key holds a `/`), as some
 * gateways take a key; a process that records the base URL must know the key to hide it there.
 */
export function startCanaryServer(options: { readonly keyInPath?: boolean } = {}): Promise<FakeServer> {
  return startFakeOpenAIServer({ respond: answer, faults: faults(), ...(options.keyInPath ? { basePath: `/${encodeURIComponent(CANARY_KEY)}/v1` } : {}) });
}

export const CANARIES = [CANARY_KEY, CANARY_URL_PASSWORD, CANARY_QUERY_TOKEN] as const;

/** The run every canary test makes: FunctionChat dialog (tool calls) with a judge, credentials in --base-url, 400s kept as results. */
export const canaryRunArgs = (server: FakeServer, db: string): string[] => [
  'run', 'functionchat/dialog', '-m', 'openai:tested', '--judge', 'openai:judge', '--base-url', canaryBaseUrl(server),
  '--limit', '12', '--no-fail-fast', '--max-retries', '0', '--concurrency', '4', '--json', '--db', db,
];
