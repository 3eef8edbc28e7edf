export { ensureDataset, verifyDataset, formatVerifyReport } from './download.js';
export type { DownloadProgress, EnsureDatasetOptions, EnsureDatasetResult, FetchedSource, MismatchedFile, VerifyReport } from './download.js';
export { FUNCTIONCHAT_MANIFEST, METATOOL_MANIFEST, getManifest, remoteUrl } from './manifest.js';
export type { DatasetManifest, DerivedGroup, DerivedOutput, PinnedFile } from './manifest.js';
export { unpickle, NdArray } from './pickle.js';
export type { PickleValue, PickleDict, UnpickleOptions } from './pickle.js';
export type { HttpGet, HttpResponse } from '../../net/http-get.js';
