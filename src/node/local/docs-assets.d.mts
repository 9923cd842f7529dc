export declare const ASSETS_DIR: string;
/** Copies Swagger UI into the static assets directory; returns the directory it wrote. */
export declare function copyDocsAssets(): string;
