/**
 * @readiness-catalog/client/node: everything of the main entry, and a client whose `download()`
 * writes a verified document to disk (Node only).
 */
import { catalogClient, clientContext, type CatalogClient, type CatalogClientOptions } from "./client.js";
import { downloadRelease, type DownloadOptions, type DownloadResult } from "./node/download.js";
import { syncRelease, type SyncOptions, type SyncProgress, type SyncResult } from "./node/sync.js";

export * from "./index.js";
export type { DownloadOptions, DownloadResult, SyncOptions, SyncProgress, SyncResult };

export interface NodeCatalogClient extends CatalogClient {
  /**
   * Downloads the current release (or `options.release`) to `path`, verified, atomically; parts
   * already on disk with the manifest's sha256 (the previous download, an interrupted one) are not
   * downloaded again.
   */
  download(path: string, options?: DownloadOptions): Promise<DownloadResult>;
  /**
   * Keeps `<dir>/catalog.json` a verified copy of the current release: the first call downloads
   * it, later ones fetch only the profiles that changed since the local copy's release, rebuild
   * the new document, verify it and replace the copy atomically (a full download when the local
   * release is no longer kept, or the changes would cost more than the document).
   */
  sync(dir: string, options?: SyncOptions): Promise<SyncResult>;
}

export function createCatalogClient(options: CatalogClientOptions): NodeCatalogClient {
  const context = clientContext(options);
  return {
    ...catalogClient(context),
    download: (path, downloadOptions) => downloadRelease(context, path, downloadOptions),
    sync: (dir, syncOptions) => syncRelease(context, dir, syncOptions),
  };
}
