/**
 * @readiness-catalog/client/node: everything of the main entry, and a client whose `download()`
 * writes a verified document to disk (Node only).
 */
import { catalogClient, clientContext, type CatalogClient, type CatalogClientOptions } from "./client.js";
import { downloadRelease, type DownloadOptions, type DownloadResult } from "./node/download.js";

export * from "./index.js";
export type { DownloadOptions, DownloadResult };

export interface NodeCatalogClient extends CatalogClient {
  /**
   * Downloads the current release (or `options.release`) to `path`, verified, atomically; parts
   * already on disk with the manifest's sha256 (the previous download, an interrupted one) are not
   * downloaded again.
   */
  download(path: string, options?: DownloadOptions): Promise<DownloadResult>;
}

export function createCatalogClient(options: CatalogClientOptions): NodeCatalogClient {
  const context = clientContext(options);
  return {
    ...catalogClient(context),
    download: (path, downloadOptions) => downloadRelease(context, path, downloadOptions),
  };
}
