import { startLoopbackServer, type LoopbackBehavior, type LoopbackServer, type WireAdapter } from '../demo/loopback-server.js';

/**
 * A loopback "support bot" with an HTTP API of its own, the kind of application an `http` target
 * points at: `POST /chat` with `{"session": …, "message": …}` (other fields are kept as sent), the
 * answer `{"reply": …, "turn": n, "calls": [...]}`. It keeps each session's conversation itself,
 * so a test can check which turns reached which session.
 */
export interface SessionAppRequest {
  readonly session: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

/** What the app answers; by default a reply naming the turn and the session's history length. */
export type SessionAppAnswer = Readonly<Record<string, unknown>>;

export interface SessionAppServer extends LoopbackServer<SessionAppRequest, SessionAppAnswer> {
  /** Every session's messages, in the order they arrived. */
  readonly histories: ReadonlyMap<string, readonly string[]>;
}

/**
 * Starts the app on 127.0.0.1. A turn is recorded as it is answered, whoever decided the answer
 * (`respond` or the default); a faulted request is not, as a real app that refuses one does not.
 */
export async function startSessionApp(behavior: LoopbackBehavior<SessionAppRequest, SessionAppAnswer> = {}): Promise<SessionAppServer> {
  const histories = new Map<string, string[]>();
  /** Records a turn as it is answered (a refused or faulted request is not part of the conversation). */
  const remember = (body: SessionAppRequest): void => {
    const history = histories.get(body.session) ?? [];
    history.push(body.message);
    histories.set(body.session, history);
  };
  const adapter: WireAdapter<SessionAppRequest, SessionAppAnswer> = {
    route: 'POST /chat',
    matches: (method, path) => method === 'POST' && path.split('?')[0] === '/chat',
    readBody: (parsed) => {
      if (parsed === null || typeof parsed !== 'object') return undefined;
      const { session, message } = parsed as { session?: unknown; message?: unknown };
      return typeof session === 'string' && typeof message === 'string' ? (parsed as SessionAppRequest) : undefined;
    },
    invalidBodyMessage: 'expected {"session": string, "message": string}',
    key: (body) => body.message,
    defaultAnswer: (body) => {
      const turn = (histories.get(body.session)?.length ?? 0) + 1;
      return { reply: `turn ${turn}: ${body.message}`, turn };
    },
    answerJson: (answer, body) => {
      remember(body);
      return JSON.stringify(answer);
    },
    errorJson: (status, message) => JSON.stringify({ error: { message, status } }),
    brokenJson: '{"reply": "cut',
    credentialHeader: 'authorization',
    credentialLength: (value) => (value.startsWith('Bearer ') ? value.length - 'Bearer '.length : undefined),
  };
  const server = await startLoopbackServer(adapter, { ...behavior, basePath: '/chat' });
  return Object.assign(server, { histories });
}
