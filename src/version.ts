/**
 * The service's name and version, from package.json. The Worker cannot read files at run time, so the bundler
 * (wrangler's esbuild, and Vite in the tests) inlines them; named imports keep the rest of package.json out of the
 * bundle. The package version is the interface's version (spec section 9: 7.22.0), so the OpenAPI document's
 * info.version and the MCP serverInfo say the same (docs/decisions/version-source.md).
 */
import { name, version } from '../package.json';

export const SERVICE_NAME: string = name;
export const SERVICE_VERSION: string = version;
