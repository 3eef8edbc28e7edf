import { constants } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { InputError, sha256 } from '../../core/index.js';
import { decodeText } from '../decode-text.js';

/** One file of a resource, read: its path for messages and its text. */
export interface ResourceFile {
  /** The path as messages show it: the resource folder joined with the relative path. */
  readonly file: string;
  readonly text: string;
  /** sha256 of the file's bytes (as in the resource's checksums). */
  readonly sha256: string;
}

/** Where the manifest names a file: refusals of that file point there (`manifest.yaml:9: personas[0].template: …`). */
export interface NamedAt {
  readonly file: string;
  readonly line: number;
  /** The key, dotted (`personas[0].template`). */
  readonly field: string;
}

/**
 * The largest file a resource may hold. A persona set or a document past it is not a measurement
 * resource anyone writes by hand; refusing it keeps a stray disk image or log from being parsed
 * (YAML needs many times a file's size in memory) and sent to a model endpoint.
 */
export const MAX_RESOURCE_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads a resource's files by their path relative to its folder and keeps the sha256 of every
 * file read, keyed by that relative path (with `/`), so a run can record exactly what it measured
 * with. A file read twice (two personas sharing a parameter set) is read once.
 *
 * Only files really inside the folder are read: the manifest's paths cannot hold `..` (its
 * schema), and here the real path (symbolic links resolved) of each file must be inside the
 * folder's real path, so a link to `~/.ssh/id_rsa` is refused rather than sent to the endpoint
 * and stored. Links within the folder are fine. The file must be a regular file (a FIFO would
 * block the read forever, a device never ends) of at most {@link MAX_RESOURCE_FILE_BYTES}.
 *
 * The check is made again on the file as opened (`openedPath`): a folder on the way swapped for a
 * link between the check and the open (the open does not follow a link in the last part only)
 * would otherwise lead out.
 */
export class ResourceFiles {
  readonly #checksums = new Map<string, string>();
  readonly #read = new Map<string, Promise<ResourceFile>>();
  #realFolder: Promise<string> | undefined;

  constructor(
    readonly folder: string,
    /** @internal tests: runs between the path's check and its open, where a swap would race. */
    private readonly betweenCheckAndOpen?: (real: string) => void,
  ) {}

  /**
   * @param namedAt where the manifest names the file (the manifest itself is named by nobody).
   * @throws InputError naming the file (and the manifest line naming it) when it cannot be read,
   *   resolves outside the folder, is not a regular file or is too large.
   */
  read(relative: string, namedAt?: NamedAt): Promise<ResourceFile> {
    const key = relative.split(/[/\\]/).filter((part) => part !== '' && part !== '.').join('/');
    let pending = this.#read.get(key);
    if (!pending) {
      const file = path.join(this.folder, ...key.split('/'));
      pending = this.#readInside(file, relative, namedAt).then((bytes) => {
        const sum = sha256(bytes);
        this.#checksums.set(key, sum);
        return { file, text: decodeText(bytes).text, sha256: sum };
      });
      this.#read.set(key, pending);
    }
    return pending;
  }

  /** sha256 of every file read so far, by relative path, in path order. */
  checksums(): Record<string, string> {
    return Object.fromEntries([...this.#checksums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  async #readInside(file: string, relative: string, namedAt: NamedAt | undefined): Promise<Buffer> {
    const refuse = (why: string): InputError =>
      namedAt ? new InputError(`${namedAt.file}:${namedAt.line}: ${namedAt.field}: ${relative} ${why}`, { file: namedAt.file, line: namedAt.line }) : new InputError(`${file}: ${why}`, { file });
    const cannotRead = (error: unknown): InputError => new InputError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file });
    this.#realFolder ??= realpath(this.folder);
    let real: string;
    let folder: string;
    try {
      [folder, real] = await Promise.all([this.#realFolder, realpath(file)]);
    } catch (error) {
      throw cannotRead(error);
    }
    if (!isInside(real, folder)) throw refuse(`resolves to ${real}, outside the resource folder ${folder} (a symbolic link out of it?); a resource reads only files inside its folder`);
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; O_NOFOLLOW: the file checked
    // above is the file opened, not a link put in its place since.
    this.betweenCheckAndOpen?.(real);
    let handle;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch (error) {
      throw cannotRead(error);
    }
    try {
      const opened = await openedPath(handle, real);
      if (opened === undefined) throw refuse(`was another file once opened than the one checked (a folder on its way swapped for a link?); a resource reads only files inside its folder`);
      if (opened !== real && !isInside(opened, folder)) throw refuse(`resolves to ${opened}, outside the resource folder ${folder}, once opened (a folder on its way swapped for a link?); a resource reads only files inside its folder`);
      const stat = await handle.stat();
      if (!stat.isFile()) throw refuse('is not a regular file');
      if (stat.size > MAX_RESOURCE_FILE_BYTES) throw refuse(`is ${stat.size} bytes, over the ${MAX_RESOURCE_FILE_BYTES / (1024 * 1024)} MiB a resource file may have`);
      return await handle.readFile();
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw cannotRead(error);
    } finally {
      await handle.close();
    }
  }
}

/**
 * The path of the file an open handle is on, as the kernel resolved it (Linux: /proc/self/fd).
 * Elsewhere, `real` when it still names the same file as the handle (device and inode), else
 * undefined: a swap that is undone again before this check is not seen there.
 */
async function openedPath(handle: FileHandle, real: string): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    const [held, named] = await Promise.all([handle.stat(), stat(real).catch(() => undefined)]);
    return named !== undefined && named.dev === held.dev && named.ino === held.ino ? real : undefined;
  }
}

function isInside(real: string, folder: string): boolean {
  const relative = path.relative(folder, real);
  return relative !== '' && !relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative);
}
