/**
 * File-system error codes in the words a user acts on. `mkdir -p` under a regular file fails with
 * ENOTDIR (a file in the middle of the path) or EEXIST (a file where the last folder should be);
 * both mean the same thing to the user.
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a path component is a file',
  EEXIST: 'a path component is a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links in the path',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
};

/** The user-facing reason of a Node file-system error, or undefined when it is not one. */
export function fsReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('E')) return undefined;
  return REASONS[code] ?? code;
}
