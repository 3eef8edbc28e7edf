import { InputError } from '../../core/errors.js';

/** One upstream file copied unchanged into the data dir, pinned by content. */
export interface PinnedFile {
  /** Where it lives in the data dir (always with `/`), e.g. `metatool/data/all_clean_data.csv`. */
  readonly path: string;
  /**
   * Path relative to the manifest's `baseUrl`, unencoded; `..` segments climb out of it. When a
   * dataset's files come from several commits, `baseUrl` is the repository's raw root and each
   * remote path starts with the commit that file is pinned at (`<commit>/data/…`).
   */
  readonly remote: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** A file assay writes itself from an upstream source, pinned by the bytes it must come out as. */
export interface DerivedOutput {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * Files converted from one upstream source. The source is downloaded only when an output is
 * missing or wrong, and is not kept in the data dir (the shared data dir does not hold it either).
 */
export interface DerivedGroup {
  /** Which converter produces the outputs (see `derive.ts`). */
  readonly converter: 'metatool-embeddings';
  readonly source: {
    readonly remote: string;
    /** `null` when the source's checksum is not known: its structure is checked instead. */
    readonly sha256: string | null;
    readonly bytes: number | null;
  };
  /** Shape the source must have, checked after conversion (a stand-in for an unknown checksum). */
  readonly expect: { readonly entries: number; readonly dimensions: number };
  readonly outputs: {
    readonly embeddings: DerivedOutput;
    readonly neighbors: DerivedOutput;
  };
  /** Data-dir path of the JSON object whose keys are the tools that get neighbours. */
  readonly toolsFile: string;
  /** Neighbours kept per tool, the tool itself included. */
  readonly neighbors: number;
}

export interface DatasetManifest {
  readonly dataset: string;
  /** Human name used in messages ("MetaTool data not found in …"). */
  readonly title: string;
  /** Top folder of the dataset inside the data dir. */
  readonly folder: string;
  readonly source: string;
  /** The upstream commit of the files; when they come from several, the current release's (each remote path names its own). */
  readonly commit: string;
  /** Ends with `/`. Remote paths are resolved against it; an `ASSAY_<DATASET>_BASE_URL` mirror replaces it. */
  readonly baseUrl: string;
  readonly files: readonly PinnedFile[];
  readonly derived: readonly DerivedGroup[];
}


/**
 * The URL of a remote path. Each segment is percent-encoded on its own, because MetaTool file
 * names hold spaces and `&` (`scenario/artists&designers.json`); `..` is kept so it can climb out
 * of `baseUrl` (the LICENSE sits above `dataset/`).
 */
export function remoteUrl(baseUrl: string, remote: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const encoded = remote
    .split('/')
    .map((segment) => (segment === '..' || segment === '.' ? segment : encodeURIComponent(segment)))
    .join('/');
  return new URL(encoded, base).toString();
}

