// MetaTool's pinned files: what `assay data fetch metatool` downloads and `verify` checks,
// listed in datasets/fetch/manifests.ts.
import type { DatasetManifest } from '../fetch/manifest.js';

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
