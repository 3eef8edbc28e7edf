import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface FileDigest {
  readonly sha256: string;
  readonly bytes: number;
}

/** sha256 and size of a file, streamed; `undefined` when the file does not exist. */
export async function hashFile(file: string): Promise<FileDigest | undefined> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { sha256: hash.digest('hex'), bytes };
}
