// FunctionChat-Bench's pinned files: what `assay data fetch functionchat` downloads and `verify`
// checks, listed in datasets/fetch/manifests.ts.
import type { DatasetManifest } from '../fetch/manifest.js';

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
