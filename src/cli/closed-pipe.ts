/**
 * `assay export <run> | head -1`: once `head` has read its line it closes the pipe, and every later
 * write to stdout fails with EPIPE. Node ignores SIGPIPE, so the failure arrives as an 'error'
 * event on the stream, which without a listener kills the process with a stack trace and exit 1.
 * A reader that has had enough is not a failure of the command: the rest of the output is
 * dropped quietly and the command ends with its own exit code (0 when all went well). Other
 * stream errors are not ours to hide and are rethrown as before.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  // Once per stream: main() may run more than once in a process (tests, library callers).
  if (stream.listeners('error').includes(onStreamError)) return;
  stream.on('error', onStreamError);
}

/** Streams whose reader has gone (an EPIPE seen). Node's stdout is never marked destroyed: each later write fails again. */
const gone = new WeakSet<object>();

/** Whether `stream`'s reader has closed the pipe (`endQuietlyOnClosedPipe` saw an EPIPE on it): nothing more need be made for it. */
export const readerGone = (stream: NodeJS.WriteStream): boolean => gone.has(stream);

function onStreamError(this: NodeJS.WriteStream, error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') {
    gone.add(this);
    return;
  }
  throw error;
}
