import { createHash, randomBytes } from 'node:crypto';

/**
 * The `session` a target is given, from the sample id that reaches every call of a sample
 * (`GenerateOptions.sampleId`: the runner passes it for the model under test, the judge and the
 * simulated user alike, and a harm conversation is one sample). The same sample gets the same
 * session for every turn; another sample gets another.
 *
 * A random part, drawn once per provider (once per run, per resume, per worker), keeps two runs —
 * or a resume that plays a conversation again from its start — from sharing the history an
 * application keeps under a session: a sample restarted is a new conversation. The sample id is
 * hashed so that any id (long, with spaces or slashes) makes a short token safe in a URL or header.
 * A call without a sample id (a library call outside a run) is a conversation of its own.
 */
export function createSessionIds(random: () => Buffer = () => randomBytes(6)): (sampleId: string | undefined) => string {
  const run = random().toString('hex');
  let lone = 0;
  return (sampleId) => {
    if (sampleId === undefined) return `${run}-call-${++lone}`;
    return `${run}-${createHash('sha256').update(sampleId).digest('hex').slice(0, 16)}`;
  };
}
