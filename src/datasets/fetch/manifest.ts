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

const METATOOL_COMMIT = '35e81bb7576826e980c80fed8f8c0a2b4a1e6fbb';

/**
 * MetaTool at a fixed commit. Checksums and sizes were computed from /work/shared/datasets/metatool,
 * a byte-for-byte copy of that commit's `dataset/` folder (plus the repository LICENSE).
 * `dataset/tmp_dataset/Task2-Subtask1.json` and `Task2-Subtask2.json` are deliberately absent:
 * they are large, put the gold tool at fixed positions, and assay rebuilds those prompts itself.
 */
export const METATOOL_MANIFEST: DatasetManifest = {
  dataset: 'metatool',
  title: 'MetaTool',
  folder: 'metatool',
  source: 'https://github.com/HowieHwong/MetaTool',
  commit: METATOOL_COMMIT,
  baseUrl: `https://raw.githubusercontent.com/HowieHwong/MetaTool/${METATOOL_COMMIT}/dataset/`,
  files: [
    // The license sits at the repository root, one level above `dataset/`.
    { path: 'metatool/LICENSE', remote: '../LICENSE', sha256: '7d3e10ed82f071f6f96ff6bf660826472ca1045d546cdd2ccb3ffda2103588f7', bytes: 1066 },
    { path: 'metatool/big_tool_des.json', remote: 'big_tool_des.json', sha256: 'dcb6b4d2586acaa697d40ac710ceed2c201487b0eb2ea2651f56025bfabc7f5a', bytes: 6799 },
    { path: 'metatool/plugin_des.json', remote: 'plugin_des.json', sha256: 'c446ade5acfb8e16c477124250665021e63b11bf6cb232db04fc9ba6bed0389a', bytes: 22484 },
    { path: 'metatool/plugin_info.json', remote: 'plugin_info.json', sha256: '864bf25bd5494feca861acb98f69d260f212d9c098a2dc68b4b2ee357d6fb2f5', bytes: 326361 },
    { path: 'metatool/data/all_clean_data.csv', remote: 'data/all_clean_data.csv', sha256: 'cf2eb0474396677530931def51012da4e88f9f34f655332f04177b2054101baf', bytes: 2770203 },
    { path: 'metatool/data/multi_tool_query_golden.json', remote: 'data/multi_tool_query_golden.json', sha256: 'ef37d10a8cb5b41435d6ea3ae29819afdb8d6db0852268830e5ee77259507f51', bytes: 112358 },
    { path: 'metatool/scenario/Finance Staff.json', remote: 'scenario/Finance Staff.json', sha256: '07c202f9ea9e8ec6d7df12b71e6c2c6ad4e932dd1de9a50202ae039236cb12c5', bytes: 764 },
    { path: 'metatool/scenario/Housewife.json', remote: 'scenario/Housewife.json', sha256: 'c800e52e65e6a98a4259012959aaf13cdbb8902d90046ca3d6f2971746ab46a7', bytes: 394 },
    { path: 'metatool/scenario/Software Engineer.json', remote: 'scenario/Software Engineer.json', sha256: 'c30b5efc174facf767567560d7d192138711a102800f14149f27764ed8514844', bytes: 679 },
    { path: 'metatool/scenario/Students.json', remote: 'scenario/Students.json', sha256: '6d997bbd0749c663d1239631277ac6cc51e0159dd83f363984f52cdb4c5f357f', bytes: 545 },
    { path: 'metatool/scenario/TopTool_top10.json', remote: 'scenario/TopTool_top10.json', sha256: '9fc922c4a9277c34d88f45e7a17b1b68cbcfbe0bdc7a139f287ab92b66a8b264', bytes: 247 },
    { path: 'metatool/scenario/TopTool_top15.json', remote: 'scenario/TopTool_top15.json', sha256: '54e8193bf4fd54397d1cf67fcadc99b1d463779225dd606fd7cf93ebe1e8b02d', bytes: 368 },
    { path: 'metatool/scenario/TopTool_top5.json', remote: 'scenario/TopTool_top5.json', sha256: '23b95a4b43bbbc8e66aba11c7dd54fa62255471d500833c105d3227bcd6dac7e', bytes: 133 },
    { path: 'metatool/scenario/artists&designers.json', remote: 'scenario/artists&designers.json', sha256: 'c1d40d924632b63b258a69102c8a8f0b260001dfc8d62a759db5d14411a97302', bytes: 371 },
    { path: 'metatool/scenario/elders.json', remote: 'scenario/elders.json', sha256: '98cf8ecec235e081f70a6f285103090aeab983666338101a4e10cab307b19387', bytes: 509 },
    { path: 'metatool/tmp_dataset/Task1.json', remote: 'tmp_dataset/Task1.json', sha256: '3b5966d92acb28be4e61c877d9b9c2d4b42a0fe720b925db432bf82441ceefac', bytes: 2354893 },
    { path: 'metatool/tmp_dataset/Task2-Subtask3.json', remote: 'tmp_dataset/Task2-Subtask3.json', sha256: 'f893730a94cc6342d4171f4eb7187277fc7cc4a218b9060668039cab069f4a75', bytes: 4175043 },
    { path: 'metatool/tmp_dataset/Task2-Subtask4.json', remote: 'tmp_dataset/Task2-Subtask4.json', sha256: 'd7851cee10048f9d650b15f795c50daf097abb2ef4b893f9bb45abfedea0ea63', bytes: 1602478 },
  ],
  derived: [
    {
      converter: 'metatool-embeddings',
      source: {
        remote: 'tool_embedding.pkl',
        // Not pinned: this machine had no network access when the manifest was written, so the
        // upstream pickle's bytes were never seen. Its structure is checked instead, and the two
        // outputs below are pinned, so a different pickle cannot slip through unnoticed.
        sha256: null,
        bytes: null,
      },
      expect: { entries: 201, dimensions: 1536 },
      outputs: {
        embeddings: { path: 'metatool/derived/tool_embedding.json', sha256: 'c35c1f9ff9d0732215be807898e736fd28366ec3232c64a88fc0ac4c2c280dde', bytes: 6618107 },
        neighbors: { path: 'metatool/derived/tool_neighbors_top20.json', sha256: '6f6bec06d55ec95e906293d9462ddacceda5d40fcf2254cd32c5fe2a1c158bbf', bytes: 67331 },
      },
      toolsFile: 'metatool/plugin_des.json',
      neighbors: 20,
    },
  ],
};

const FUNCTIONCHAT_V2_COMMIT = 'cb32af378a2b94ee84fc4d3cb50302377c7ff679';
const FUNCTIONCHAT_PAPER_COMMIT = '4c630984fd9aa54e2eb48ef53f2dc16d4d69d95a';

/**
 * FunctionChat-Bench, both data versions assay knows: `v2.0.0` (release v2.0.0) and
 * `paper-2024-09` (the Sept 2024 data closest to the paper), each the `data/` folder of its own
 * commit, plus the repository's LICENSE and NOTICE.md (from the v2.0.0 commit). The base URL is
 * the repository's raw root so that one manifest can hold both commits: every remote path starts
 * with its commit. Checksums and sizes were computed from /work/shared/datasets/functionchat, a
 * byte-for-byte copy of those commits. Every file is fetched whatever version a run asks for:
 * about 3 MB in all, and a complete `functionchat/` folder is what "the data is present" means.
 */
export const FUNCTIONCHAT_MANIFEST: DatasetManifest = {
  dataset: 'functionchat',
  title: 'FunctionChat-Bench',
  folder: 'functionchat',
  source: 'https://github.com/kakao/FunctionChat-Bench',
  commit: FUNCTIONCHAT_V2_COMMIT,
  baseUrl: 'https://raw.githubusercontent.com/kakao/FunctionChat-Bench/',
  files: [
    { path: 'functionchat/LICENSE', remote: `${FUNCTIONCHAT_V2_COMMIT}/LICENSE`, sha256: 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30', bytes: 11358 },
    { path: 'functionchat/NOTICE.md', remote: `${FUNCTIONCHAT_V2_COMMIT}/NOTICE.md`, sha256: 'de3d5d33ed04a7cf0c4f97585b0a3a4f7085b9d23a575438e11c35858d756b93', bytes: 14759 },
    { path: 'functionchat/v2.0.0/FunctionChat-CallDecision.jsonl', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/FunctionChat-CallDecision.jsonl`, sha256: '7fe66417cd82a6d40741d4f3d850c9ecb80df192819564303bdad226db5d1625', bytes: 1943764 },
    { path: 'functionchat/v2.0.0/FunctionChat-Dialog.jsonl', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/FunctionChat-Dialog.jsonl`, sha256: '2596361f101421c4404cb9f855d43ed20bb9f58a4f66cbba030da2f657ef630e', bytes: 253194 },
    { path: 'functionchat/v2.0.0/FunctionChat-Singlecall.jsonl', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/FunctionChat-Singlecall.jsonl`, sha256: '3f74ed04cb9f1e0b6bc16845e5b6c69a3e75363f084b00825c9794df071a4aaf', bytes: 276833 },
    { path: 'functionchat/v2.0.0/rubric_call.txt', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/rubric_call.txt`, sha256: 'e88611fb223f2ea21853b988e259055f25867eba0dbbe8efe166ae5e2a8602e9', bytes: 2623 },
    { path: 'functionchat/v2.0.0/rubric_completion.txt', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/rubric_completion.txt`, sha256: '1df7e9530e92f893cb6707cecd08dc6d7d1c13c616f194b9d55e966561677e06', bytes: 1669 },
    { path: 'functionchat/v2.0.0/rubric_relevance.txt', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/rubric_relevance.txt`, sha256: '168d310674f61ae61131fc280fa50806e8acb57a5ff57bd8b10a2f3a074e0203', bytes: 1793 },
    { path: 'functionchat/v2.0.0/rubric_slot.txt', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/rubric_slot.txt`, sha256: '12c62fa318a05266485db4b1ca3e65e299d5337d1135f3592ee23888fc6d3324', bytes: 2175 },
    { path: 'functionchat/v2.0.0/system_prompt.txt', remote: `${FUNCTIONCHAT_V2_COMMIT}/data/system_prompt.txt`, sha256: 'd3119289419168fe2b23d54b85492b9c523427cb71caa1957c1395bdcfa16af9', bytes: 595 },
    { path: 'functionchat/paper-2024-09/FunctionChat-Dialog.jsonl', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/FunctionChat-Dialog.jsonl`, sha256: '749699dfabb4bf81587f9813a6096b4e213fc8e9b8df8cbc80dedb8b650470c4', bytes: 254930 },
    { path: 'functionchat/paper-2024-09/FunctionChat-Singlecall.jsonl', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/FunctionChat-Singlecall.jsonl`, sha256: '76c67ec9b328c61429f14a4497500d1ae1a470daea3d09aad4e2126ce1527282', bytes: 278233 },
    { path: 'functionchat/paper-2024-09/rubric_call.txt', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/rubric_call.txt`, sha256: 'ece48652fe7a1e02aa727bdebed30fd3d68804d6dd5edd804ef057a53d4dba7e', bytes: 2345 },
    { path: 'functionchat/paper-2024-09/rubric_completion.txt', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/rubric_completion.txt`, sha256: 'c079eaefb199e31400af4228580f53e52b74a443cb0d2a9f9d8565d0c4b3a9c1', bytes: 1281 },
    { path: 'functionchat/paper-2024-09/rubric_relevance.txt', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/rubric_relevance.txt`, sha256: 'd6f44baec3a81d0e3055f506e06d9e7f24ece4533b409280f0e398ec2cf0f58c', bytes: 1660 },
    { path: 'functionchat/paper-2024-09/rubric_slot.txt', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/rubric_slot.txt`, sha256: '600a672c061d1cf21c557050aa1880ee4d1bf7741ffb6ba5aef7b2e7e6e0af10', bytes: 1711 },
    { path: 'functionchat/paper-2024-09/system_prompt.txt', remote: `${FUNCTIONCHAT_PAPER_COMMIT}/data/system_prompt.txt`, sha256: '572f10f5942fde2248261e5e8be1f185bbd0b86c6a0ca9390dd1f4f292279f34', bytes: 485 },
  ],
  derived: [],
};

const MANIFESTS: Readonly<Record<string, DatasetManifest>> = { metatool: METATOOL_MANIFEST, functionchat: FUNCTIONCHAT_MANIFEST };

/** The manifest of a dataset assay knows how to fetch. */
export function getManifest(name: string): DatasetManifest {
  const manifest = MANIFESTS[name];
  if (!manifest) {
    throw new InputError(`unknown dataset "${name}"; known datasets: ${Object.keys(MANIFESTS).join(', ')}`);
  }
  return manifest;
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

