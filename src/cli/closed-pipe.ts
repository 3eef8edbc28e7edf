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

function onStreamError(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  throw error;
}
